package io.streamledger.sinks.posting;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.aws.retry.Retrying;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.sinks.deadletter.DeadLetterSink;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Writes the fills the posting rules rejected (CS08 + AP15) as {@link PostingRejections}: one
 * REJECTED_FILL dead letter and one break per fill, synchronously inside {@code write} so a
 * checkpoint never completes with a rejection unwritten. A write that fails for good fails the job
 * (infrastructure); the restart lands on the same entry and break. Metrics (group {@code
 * deadLetters}): {@code written}, {@code repeats}, {@code reason.REJECTED_FILL}, {@code
 * rejected.<CODE>}.
 */
public final class PostingRejectionSink implements Sink<PostingOutcome> {

    private static final long serialVersionUID = 1L;

    private final DynamoDbClientConfig client;
    private final PostingRejections rejections;
    private final String operator;
    private final int maxAttempts;
    private final Duration backoffBase;
    private final Duration backoffMax;

    /**
     * @param operator uid of the operator that rejected the fills
     * @param maxAttempts write attempts per item on throttles/5xx (SDK retries come on top)
     */
    public PostingRejectionSink(
            DynamoDbClientConfig client,
            PostingRejections rejections,
            String operator,
            int maxAttempts,
            Duration backoffBase,
            Duration backoffMax) {
        this.client = client;
        this.rejections = rejections;
        this.operator = operator;
        this.maxAttempts = maxAttempts;
        this.backoffBase = backoffBase;
        this.backoffMax = backoffMax;
    }

    @Override
    @Deprecated
    public SinkWriter<PostingOutcome> createWriter(InitContext context) {
        return new Writer(context.metricGroup());
    }

    @Override
    public SinkWriter<PostingOutcome> createWriter(WriterInitContext context) {
        return new Writer(context.metricGroup());
    }

    private final class Writer implements SinkWriter<PostingOutcome> {
        private final DynamoDbClient ddb = client.buildSyncClient();
        private final Retrying retrying =
                new Retrying(RetryPolicy.halfJitter(maxAttempts, backoffBase, backoffMax));
        private final MetricGroup group;
        private final Counter written;
        private final Counter repeats;
        private final Counter rejectedFills;
        private final Counter replayFailed;
        private final Map<String, Counter> byCode = new HashMap<>();

        Writer(MetricGroup metrics) {
            group = metrics.addGroup(DeadLetterSink.METRIC_GROUP);
            written = group.counter("written");
            repeats = group.counter("repeats");
            rejectedFills = group.counter("reason.REJECTED_FILL");
            replayFailed = group.counter("replayFailed");
        }

        @Override
        public void write(PostingOutcome o, Context context) throws IOException {
            try {
                DeadLetterEntry entry = rejections.deadLetter(o, operator);
                boolean repeat = rejections.write(ddb, retrying, entry, rejections.breakOf(o));
                (repeat ? repeats : written).inc();
                rejectedFills.inc();
                if (o.getReplayOf() != null) {
                    // a replayed fill rejected again: its entry goes back to the open queue
                    rejections.settleReplay(
                            ddb,
                            retrying,
                            o.getReplayOf(),
                            o.getReplayVersion(),
                            false,
                            PostingRejections.sameEntry(o.getReplayOf(), entry.key()),
                            o.getReason());
                    replayFailed.inc();
                }
                byCode.computeIfAbsent(
                                String.valueOf(o.reasonCode()), c -> group.counter("rejected." + c))
                        .inc();
            } catch (RuntimeException e) {
                throw new IOException("rejected fill " + o.getEventId() + " not recorded", e);
            }
        }

        @Override
        public void flush(boolean endOfInput) {
            // nothing buffered: every write completed in write()
        }

        @Override
        public void close() {
            ddb.close();
        }
    }
}
