package io.streamledger.jobs.source;

import io.streamledger.model.change.Transport;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kinesis.source.serialization.KinesisDeserializationSchema;
import org.apache.flink.kinesis.shaded.software.amazon.awssdk.services.kinesis.model.Record;
import org.apache.flink.util.Collector;

/**
 * Keeps the data blob of each Kinesis record ({@code KinesisStreamsSource}) with its shard,
 * sequence number and arrival time; parsing happens downstream (dead letters, not job failures).
 */
public final class KinesisRawSchema implements KinesisDeserializationSchema<RawChange> {

    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(
            Record record, String stream, String shardId, Collector<RawChange> out) {
        long arrival =
                record.approximateArrivalTimestamp() == null
                        ? 0L
                        : record.approximateArrivalTimestamp().toEpochMilli();
        out.collect(
                new RawChange(
                        Transport.KINESIS.name(),
                        stream,
                        shardId,
                        record.sequenceNumber(),
                        arrival,
                        record.data().asByteArray()));
    }

    @Override
    public TypeInformation<RawChange> getProducedType() {
        return SourceTypes.RAW_CHANGE;
    }
}
