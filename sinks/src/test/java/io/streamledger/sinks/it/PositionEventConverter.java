package io.streamledger.sinks.it;

import io.streamledger.sinks.versioned.VersionedWrite;
import java.util.Map;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Turns a {@link PositionEvent} into its version-guarded Portfolio write (seed AP07, CS06). */
public final class PositionEventConverter
        implements ElementConverter<PositionEvent, VersionedWrite> {
    private static final long serialVersionUID = 1L;

    private final String table;

    public PositionEventConverter(String table) {
        this.table = table;
    }

    @Override
    public VersionedWrite apply(PositionEvent e, SinkWriter.Context context) {
        return VersionedWrite.of(
                table,
                Map.of("PK", AttributeValue.fromS(e.pk()), "SK", AttributeValue.fromS(e.sk())),
                Map.of(
                        "quantity",
                        AttributeValue.fromN(Long.toString(PositionEvent.quantityAt(e.version)))),
                e.version);
    }
}
