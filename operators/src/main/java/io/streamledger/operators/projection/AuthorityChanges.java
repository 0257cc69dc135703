package io.streamledger.operators.projection;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.gate.GateEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * Maps Ledger-table change records of AP12 authority items (IDX11 {@code AUTH#CASH#ccy} / {@code
 * AUTH#SEC#symbol}) to gate events (AP13, CS06): source key = the authority item (tenant + account
 * + asset), version = the authority's version, eventId = table + item + version (the business
 * identity of "authority reached version n"). Postings, counters and other items are skipped.
 */
public final class AuthorityChanges {

    /** {@link GateEvent#getKind()} of every authority event. */
    public static final String KIND = "AuthorityChanged";

    private AuthorityChanges() {}

    /**
     * The gate source key of an authority item: {@code tenant/account/CASH|SEC/asset}. It becomes
     * the {@code SOURCE#key} component of the IDX12 checkpoint key, which may not contain {@code
     * #}; each part is already a '#'-free key component.
     */
    public static String sourceKey(AuthorityKey key) {
        return key.tenant() + "/" + key.account() + "/" + key.kind().name() + "/" + key.asset();
    }

    /**
     * @return the event, or empty for items that are not authorities
     * @throws IllegalArgumentException for an authority change that cannot be projected
     */
    public static Optional<GateEvent> toGateEvent(ChangeRecord change) {
        return toGateEvent(change, ViewScope.ALL);
    }

    /**
     * As {@link #toGateEvent(ChangeRecord)}, and empty for an authority whose account is outside
     * the view's {@code scope}: decided from the key alone, before the image is read, so such a
     * change never reaches the gate (no gate state, no checkpoint row, no view row).
     */
    public static Optional<GateEvent> toGateEvent(ChangeRecord change, ViewScope scope) {
        String pk = change.stringKey(Attr.PK);
        String sk = change.stringKey(Attr.SK);
        if (pk == null || sk == null || !LedgerSchema.isAuthority(sk)) {
            return Optional.empty();
        }
        AuthorityKey key = AuthorityKey.parse(pk, sk);
        if (!scope.includes(key.account())) {
            return Optional.empty();
        }
        if (change.operation() == Operation.REMOVE) {
            // AP12 authority is never deleted: corrections are reversing transactions (CS11)
            throw new IllegalArgumentException(
                    "authority item " + pk + " / " + sk + " was deleted; authorities never are");
        }
        Map<String, AttributeValue> img = change.newImage();
        if (img == null) {
            throw new IllegalArgumentException(
                    "authority change " + change.eventId() + " has no new image (stream view?)");
        }
        long version = number(img, LedgerSchema.VERSION).longValueExact();
        BigDecimal posted = number(img, LedgerSchema.POSTED);
        BigDecimal reserved =
                img.containsKey(LedgerSchema.RESERVED)
                        ? number(img, LedgerSchema.RESERVED)
                        : BigDecimal.ZERO;
        BigDecimal available =
                img.containsKey(LedgerSchema.AVAILABLE)
                        ? number(img, LedgerSchema.AVAILABLE)
                        : LedgerSchema.available(
                                posted,
                                img.containsKey(LedgerSchema.PENDING)
                                        ? number(img, LedgerSchema.PENDING)
                                        : BigDecimal.ZERO,
                                reserved);
        AuthoritySnapshot snap =
                new AuthoritySnapshot(
                        key.tenant(),
                        key.account(),
                        key.kind(),
                        key.asset(),
                        posted,
                        reserved,
                        available,
                        version);
        String sourceKey = sourceKey(key);
        long ingest = change.approximateCreationDateTime().toEpochMilli();
        return Optional.of(
                new GateEvent(
                        sourceKey,
                        version,
                        change.tableName() + "#" + sourceKey + "#V#" + version,
                        eventTime(img, ingest),
                        ingest,
                        KIND,
                        snap.toJson()));
    }

    private static long eventTime(Map<String, AttributeValue> img, long fallback) {
        if (img.get(LedgerSchema.UPDATED_AT) instanceof AttributeValue.S s) {
            try {
                return Instant.parse(s.value()).toEpochMilli();
            } catch (DateTimeParseException e) {
                return fallback;
            }
        }
        return fallback;
    }

    private static BigDecimal number(Map<String, AttributeValue> img, String name) {
        if (img.get(name) instanceof AttributeValue.N n) {
            return n.bigDecimal();
        }
        throw new IllegalArgumentException(
                "authority attribute '" + name + "' is missing or not a number: " + img.get(name));
    }
}
