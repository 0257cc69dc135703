package io.streamledger.jobs.source;

import io.streamledger.model.change.Transport;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.connectors.kinesis.serialization.KinesisDeserializationSchema;

/**
 * Keeps the bytes {@code FlinkDynamoDBStreamsConsumer} delivers (the adapter's JSON of the SDK v1
 * record, see {@link ConnectorRecordJson}) with their shard and sequence number; parsing happens
 * downstream so a bad record is dead-lettered instead of failing the source.
 */
public final class DynamoDbStreamsRawSchema implements KinesisDeserializationSchema<RawChange> {

    private static final long serialVersionUID = 1L;

    @Override
    public RawChange deserialize(
            byte[] recordValue,
            String partitionKey,
            String seqNum,
            long approxArrivalTimestamp,
            String stream,
            String shardId) {
        return new RawChange(
                Transport.DYNAMODB_STREAMS.name(),
                stream,
                shardId,
                seqNum,
                approxArrivalTimestamp,
                recordValue);
    }

    @Override
    public TypeInformation<RawChange> getProducedType() {
        return SourceTypes.RAW_CHANGE;
    }
}
