package io.streamledger.sinks.deadletter;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.sinks.metrics.FlinkMetricsBackend;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Writes a job's side output into the durable dead-letter table (CS08) with exactly-once effects:
 * each record becomes one entry under its deterministic id ({@link DeadLetterItems#upsert}); a
 * repeat of the same record only counts {@code attempts}. Every write completes inside {@code
 * write}, so a checkpoint never completes with a dead letter unwritten; dead letters are rare, so
 * one synchronous request per record costs nothing the job would notice.
 *
 * <p>Errors: throttling, 5xx and I/O are retried with backoff up to {@code maxAttempts}; anything
 * else fails the job (its restart replays the record onto the same entry). Metrics (group {@code
 * deadLetters}): {@code written}, {@code repeats}, {@code retries}, {@code reason.<REASON>}.
 */
public final class DeadLetterSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;

    public static final String METRIC_GROUP = "deadLetters";

    /** Tag of the dead-letter writes: the durable dead-letter table is CS08's, not an AP's. */
    static final String AP = "CS08";

    private final DynamoDbClientConfig client;
    private final String table;
    private final DeadLetterConverter<T> converter;
    private final int maxAttempts;
    private final long backoffBaseMillis;
    private final long backoffMaxMillis;

    /**
     * @param table physical DeadLetter table
     * @param maxAttempts write attempts per record (SDK retries come on top)
     */
    public DeadLetterSink(
            DynamoDbClientConfig client,
            String table,
            DeadLetterConverter<T> converter,
            int maxAttempts,
            long backoffBaseMillis,
            long backoffMaxMillis) {
        if (maxAttempts < 1 || maxAttempts > 100) {
            throw new IllegalArgumentException("maxAttempts must be 1..100, got " + maxAttempts);
        }
        this.client = client;
        this.table = table;
        this.converter = converter;
        this.maxAttempts = maxAttempts;
        this.backoffBaseMillis = backoffBaseMillis;
        this.backoffMaxMillis = backoffMaxMillis;
    }

    @Override
    @Deprecated
    public SinkWriter<T> createWriter(InitContext context) {
        return new Writer(context.metricGroup());
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        return new Writer(context.metricGroup());
    }

    private final class Writer implements SinkWriter<T> {
        private final DynamoDbClient ddb;
        private final RetryPolicy backoff =
                RetryPolicy.halfJitter(
                        maxAttempts,
                        Duration.ofMillis(backoffBaseMillis),
                        Duration.ofMillis(backoffMaxMillis));
        private final MetricGroup group;
        private final Counter written;
        private final Counter repeats;
        private final Counter retries;
        private final Map<DeadLetterReason, Counter> byReason =
                new EnumMap<>(DeadLetterReason.class);

        Writer(MetricGroup metrics) {
            ddb = client.buildSyncClient(FlinkMetricsBackend.recorder(metrics));
            group = metrics.addGroup(METRIC_GROUP);
            written = group.counter("written");
            repeats = group.counter("repeats");
            retries = group.counter("retries");
        }

        @Override
        public void write(T record, Context context) throws IOException, InterruptedException {
            DeadLetterEntry e = converter.toEntry(record);
            for (int attempt = 1; ; attempt++) {
                try {
                    UpdateItemResponse r =
                            ddb.updateItem(ApTag.tag(DeadLetterItems.upsert(table, e), AP));
                    boolean repeat =
                            r.hasAttributes()
                                    && r.attributes().containsKey(DeadLetterItems.A_ATTEMPTS);
                    (repeat ? repeats : written).inc();
                    byReason.computeIfAbsent(e.reason(), k -> group.counter("reason." + k.name()))
                            .inc();
                    return;
                } catch (RuntimeException ex) {
                    if (!DynamoDbErrorClassifier.isRetryable(ex) || attempt >= maxAttempts) {
                        throw new IOException(
                                "dead letter "
                                        + e.key().pk()
                                        + " / "
                                        + e.key().sk()
                                        + " not written after "
                                        + attempt
                                        + " attempts: "
                                        + DynamoDbErrorClassifier.describe(ex),
                                ex);
                    }
                    retries.inc();
                    Thread.sleep(backoff.delayMillis(attempt));
                }
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
