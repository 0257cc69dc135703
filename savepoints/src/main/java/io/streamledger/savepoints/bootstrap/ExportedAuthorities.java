package io.streamledger.savepoints.bootstrap;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.change.Transport;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.projection.AuthorityChanges;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns one exported Ledger item into the gate event the projection job would have built from its
 * stream record (AP12 authority → AP13 source key and version), by running the job's own {@link
 * AuthorityChanges} mapper on it; postings and counters are skipped (empty).
 */
public final class ExportedAuthorities {

    private ExportedAuthorities() {}

    /**
     * @param table the exported table's name (part of the gate eventId, as on the stream)
     * @param exportTime snapshot time, used as ingest time
     * @throws IllegalArgumentException for an authority item that cannot be projected
     */
    public static Optional<GateEvent> toGateEvent(
            Map<String, AttributeValue> item, String table, Instant exportTime) {
        return toGateEvent(item, table, exportTime, ViewScope.ALL);
    }

    /**
     * As {@link #toGateEvent(Map, String, Instant)}, and empty for an authority outside the view's
     * {@code scope} (the projection job's own scope rule, {@link AuthorityChanges}).
     */
    public static Optional<GateEvent> toGateEvent(
            Map<String, AttributeValue> item, String table, Instant exportTime, ViewScope scope) {
        AttributeValue pk = item.get(Attr.PK);
        AttributeValue sk = item.get(Attr.SK);
        if (pk == null || sk == null) {
            throw new IllegalArgumentException("exported item has no PK/SK: " + item.keySet());
        }
        Map<String, AttributeValue> keys = new LinkedHashMap<>();
        keys.put(Attr.PK, pk);
        keys.put(Attr.SK, sk);
        ChangeRecord asInsert =
                new ChangeRecord(
                        "export",
                        Operation.INSERT,
                        table,
                        keys,
                        null,
                        item,
                        null,
                        exportTime,
                        null,
                        null,
                        Transport.DYNAMODB_STREAMS);
        return AuthorityChanges.toGateEvent(asInsert, scope);
    }
}
