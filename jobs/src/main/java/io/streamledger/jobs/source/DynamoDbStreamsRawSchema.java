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

    /**
     * The connector's shaded KCL adapter logs "No metrics scope set … returning NullMetricsScope"
     * through java.util.logging at WARNING on every shard poll (thousands of lines per minute, no
     * action possible). Set when this class initializes — on the task manager, when the source with
     * this schema is deserialized. Held strongly: JUL keeps loggers weakly.
     */
    private static final java.util.logging.Logger KCL_METRICS_HELPER = quietKclMetricsHelper();

    private static java.util.logging.Logger quietKclMetricsHelper() {
        java.util.logging.Logger l =
                java.util.logging.Logger.getLogger(
                        "org.apache.flink.kinesis.shaded.com.amazonaws.services.kinesis.metrics"
                                + ".impl.MetricsHelper");
        l.setLevel(java.util.logging.Level.SEVERE);
        return l;
    }

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
