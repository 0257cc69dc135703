package io.streamledger.aws.tables;

import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The start-up check of a deployment's Global Tables mode (seed "Global Tables: make the
 * consistency mode explicit"): every table of the model that exists is described, and one whose
 * policy forbids last-writer-wins (AP08 leases, AP09 receipts, AP12 authorities; {@code model}
 * {@code TablePolicy}) but has MREC replicas is refused with its reason.
 */
public final class GlobalTablesCheck {

    private GlobalTablesCheck() {}

    /** The settings of every unversioned table of the model under {@code naming}. */
    public static List<TableSettings> describe(DynamoDbClient ddb, TableNaming naming) {
        List<TableSettings> out = new ArrayList<>();
        for (TableSpec spec : Tables.all()) {
            if (!spec.versioned()) {
                out.add(TableSettings.read(ddb, spec.logicalName(), naming.physicalName(spec)));
            }
        }
        return out;
    }

    /** The refusals among {@code tables}, one line each; empty when the deployment is allowed. */
    public static List<String> violations(List<TableSettings> tables) {
        return tables.stream().map(TableSettings::violation).filter(Objects::nonNull).toList();
    }

    /** Throws {@link IllegalStateException} naming every refused table. */
    public static List<TableSettings> requireAllowed(DynamoDbClient ddb, TableNaming naming) {
        List<TableSettings> tables = describe(ddb, naming);
        List<String> refused = violations(tables);
        if (!refused.isEmpty()) {
            throw new IllegalStateException(
                    "Global Tables mode refused: " + String.join("; ", refused));
        }
        return tables;
    }
}
