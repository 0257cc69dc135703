package io.streamledger.command.portfolio;

import io.streamledger.aws.items.Av;
import io.streamledger.command.config.Schema;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Resolves which Portfolio namespace readers use (CS09, AP07): the {@code activeVersion} of the
 * alias item {@code ALIAS#portfolio / ALIAS} in the Projection table, or {@link #DEFAULT_VERSION}
 * while no cutover has ever written the alias.
 */
public final class PortfolioAlias {

    /**
     * The namespace the projection job writes when not told otherwise (jobs' {@code
     * JobOptions.PORTFOLIO_NAMESPACE_VERSION} defaults to the same model constant).
     */
    public static final int DEFAULT_VERSION = Tables.PORTFOLIO_INITIAL_VERSION;

    /** Where the version came from, reported to the client. */
    public enum Source {
        ALIAS,
        DEFAULT,
        /** Pinned by a page cursor: later pages stay in the namespace of the first. */
        CURSOR
    }

    /**
     * The namespace a read uses and the accounts its view holds (the alias's {@code viewScope},
     * written by the cutover from its proof; absent = every account).
     */
    public record Active(int version, Source source, ViewScope scope) {
        public Active(int version, Source source) {
            this(version, source, ViewScope.DEFAULT);
        }
    }

    private final Ddb ddb;
    private final TableNames tables;

    public PortfolioAlias(Ddb ddb, TableNames tables) {
        this.ddb = ddb.ap("AP07");
        this.tables = tables;
    }

    /**
     * Eventually consistent on purpose: every AP07 read (3000/s) hits this one item, and an
     * eventual read costs half a unit, keeping the item's partition well under its read limit. A
     * reader that sees the old version for a moment after a flip still gets a complete, labelled
     * namespace: AliasCutover never retires the active or a newer version.
     */
    public Active resolve(CapacityMeter meter) {
        var alias = Schema.portfolioAlias();
        Map<String, AttributeValue> item =
                ddb.getEventual(
                        tables.projection(),
                        Map.of(Schema.PK, Av.s(alias.pk()), Schema.SK, Av.s(alias.sk())),
                        meter);
        AttributeValue v = item == null ? null : item.get(Schema.ACTIVE_VERSION);
        if (v == null || v.n() == null) {
            return new Active(DEFAULT_VERSION, Source.DEFAULT);
        }
        int version;
        try {
            version = Integer.parseInt(v.n());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    "alias " + alias.pk() + " has a non-integer activeVersion " + v.n(), e);
        }
        if (version < 1) {
            // a broken invariant of AliasCutover's writes: fail loudly, do not guess a namespace
            throw new IllegalStateException(
                    "alias " + alias.pk() + " has activeVersion " + version + " < 1");
        }
        AttributeValue scope = item.get(Attr.VIEW_SCOPE);
        return new Active(version, Source.ALIAS, ViewScope.parse(scope == null ? null : scope.s()));
    }
}
