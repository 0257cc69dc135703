package io.streamledger.sinks.gaps;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.model.deadletter.ParkedGapStatus;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.ParkedGap;
import io.streamledger.operators.gate.ParkedGapChange;
import io.streamledger.sinks.metrics.FlinkMetricsBackend;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Writes a gate's gap transitions into the durable parked-gap records of the DeadLetter table
 * (CS07: gaps visible; CS08 beside the dead letters) with exactly-once effects: records are
 * committed only after the checkpoint that holds the gate state they describe, so a restore never
 * leaves a record ahead of the state (a skip recorded SKIPPED that the restored gate has not
 * applied, an open gap the replay never re-opens); every write is conditional ({@link
 * ParkedGapItems}), so a re-commit or a reordered delivery changes nothing.
 *
 * <p>Without checkpointing nothing is committed (a bounded input commits at its end). Errors:
 * throttling, 5xx and I/O are retried with backoff up to {@code maxAttempts}, then at the next
 * checkpoint; anything else fails the job. Metrics (group {@code parkedGaps}, committer): {@code
 * written}, {@code unchanged} (conditional no-ops), {@code retries}, {@code change.<CHANGE>}.
 */
public final class ParkedGapSink implements Sink<ParkedGap>, SupportsCommitter<ParkedGap> {

    private static final long serialVersionUID = 1L;

    public static final String METRIC_GROUP = "parkedGaps";

    /** Tag of the record writes: the gap visibility rule is CS07's. */
    static final String AP = "CS07";

    private final DynamoDbClientConfig client;
    private final String table;
    private final String job;
    private final String operator;
    private final int maxAttempts;
    private final long backoffBaseMillis;
    private final long backoffMaxMillis;

    /**
     * @param table physical DeadLetter table
     * @param job the job's role name, e.g. {@code posting}
     * @param operator uid of the gate whose transitions these are
     */
    public ParkedGapSink(
            DynamoDbClientConfig client,
            String table,
            String job,
            String operator,
            int maxAttempts,
            long backoffBaseMillis,
            long backoffMaxMillis) {
        if (maxAttempts < 1 || maxAttempts > 100) {
            throw new IllegalArgumentException("maxAttempts must be 1..100, got " + maxAttempts);
        }
        this.client = client;
        this.table = table;
        this.job = job;
        this.operator = operator;
        this.maxAttempts = maxAttempts;
        this.backoffBaseMillis = backoffBaseMillis;
        this.backoffMaxMillis = backoffMaxMillis;
    }

    /** The conditional write of one transition (pure; see {@link ParkedGapItems}). */
    public static UpdateItemRequest request(
            String table, String job, String operator, ParkedGap g) {
        List<Long> versions = new ArrayList<>(g.getParkedVersions().length);
        for (long v : g.getParkedVersions()) {
            versions.add(v);
        }
        String tenant = GateEvent.tenantOf(g.getSourceKey());
        if (tenant == null) {
            throw new IllegalArgumentException("no tenant in gate key " + g.getSourceKey());
        }
        ParkedGapItems.Observation o =
                new ParkedGapItems.Observation(
                        tenant,
                        job,
                        operator,
                        g.getSourceKey(),
                        g.getMissingVersion(),
                        g.getSinceMillis(),
                        g.getSlaDeadlineMillis(),
                        g.getParkedCount(),
                        versions,
                        g.isOverdue(),
                        g.getAtMillis());
        String self = "job:" + job;
        return switch (g.getChange()) {
            case OPENED, PARKED, OVERDUE -> ParkedGapItems.observe(table, o);
            case ARRIVED, SKIP_NOOP ->
                    ParkedGapItems.settle(
                            table,
                            o,
                            ParkedGapStatus.ARRIVED,
                            self,
                            note(g, "missing version arrived"));
            case SKIPPED ->
                    ParkedGapItems.settle(
                            table,
                            o,
                            ParkedGapStatus.SKIPPED,
                            g.getActor() == null ? self : g.getActor(),
                            note(g, "skipped on request"));
            case SKIP_REFUSED -> ParkedGapItems.refuseSkip(table, o, self, note(g, "refused"));
        };
    }

    private static String note(ParkedGap g, String fallback) {
        return g.getNote() == null ? fallback : g.getNote();
    }

    @Override
    @Deprecated
    public CommittingSinkWriter<ParkedGap, ParkedGap> createWriter(InitContext context) {
        return new Buffer();
    }

    @Override
    public CommittingSinkWriter<ParkedGap, ParkedGap> createWriter(WriterInitContext context) {
        return new Buffer();
    }

    @Override
    public Committer<ParkedGap> createCommitter(CommitterInitContext context) {
        return new Writes(context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<ParkedGap> getCommittableSerializer() {
        return new ParkedGapSerializer();
    }

    /**
     * Holds the transitions of the running checkpoint, its committables: the observations of one
     * open gap (opened, parked, overdue) merge into one, so a gap costs at most one refresh per
     * checkpoint however many versions park behind it.
     */
    static final class Buffer implements CommittingSinkWriter<ParkedGap, ParkedGap> {
        private List<ParkedGap> pending = new ArrayList<>();
        private final Map<String, ParkedGap> observing = new java.util.HashMap<>();

        @Override
        public void write(ParkedGap g, Context context) {
            if (!observation(g)) {
                pending.add(g);
                return;
            }
            String gap = g.getSourceKey() + "@" + g.getMissingVersion();
            ParkedGap seen = observing.get(gap);
            if (seen == null) {
                ParkedGap copy = copy(g);
                observing.put(gap, copy);
                pending.add(copy);
                return;
            }
            java.util.TreeSet<Long> versions = new java.util.TreeSet<>();
            for (long v : seen.getParkedVersions()) {
                versions.add(v);
            }
            for (long v : g.getParkedVersions()) {
                versions.add(v);
            }
            if (g.getChange() != ParkedGapChange.PARKED) {
                seen.setChange(
                        seen.getChange() == ParkedGapChange.OPENED
                                ? ParkedGapChange.OPENED
                                : g.getChange());
            }
            seen.setParkedCount(g.getParkedCount());
            seen.setOverdue(g.isOverdue());
            seen.setAtMillis(g.getAtMillis());
            seen.setParkedVersions(versions.stream().mapToLong(Long::longValue).toArray());
        }

        private static boolean observation(ParkedGap g) {
            return g.getChange() == ParkedGapChange.OPENED
                    || g.getChange() == ParkedGapChange.PARKED
                    || g.getChange() == ParkedGapChange.OVERDUE;
        }

        private static ParkedGap copy(ParkedGap g) {
            return new ParkedGap(
                    g.getSourceKey(),
                    g.getChange(),
                    g.getMissingVersion(),
                    g.getSinceMillis(),
                    g.getSlaDeadlineMillis(),
                    g.getParkedCount(),
                    g.getParkedVersions().clone(),
                    g.isOverdue(),
                    g.getAtMillis(),
                    g.getActor(),
                    g.getNote());
        }

        @Override
        public void flush(boolean endOfInput) {
            // committed after the checkpoint, not flushed
        }

        @Override
        public Collection<ParkedGap> prepareCommit() {
            List<ParkedGap> out = pending;
            pending = new ArrayList<>();
            observing.clear();
            return out;
        }

        @Override
        public void close() {}
    }

    private final class Writes implements Committer<ParkedGap> {
        private final DynamoDbClient ddb;
        private final RetryPolicy backoff =
                RetryPolicy.halfJitter(
                        maxAttempts,
                        Duration.ofMillis(backoffBaseMillis),
                        Duration.ofMillis(backoffMaxMillis));
        private final MetricGroup group;
        private final Counter written;
        private final Counter unchanged;
        private final Counter retries;
        private final Map<ParkedGapChange, Counter> byChange = new EnumMap<>(ParkedGapChange.class);

        Writes(MetricGroup metrics) {
            ddb = client.buildSyncClient(FlinkMetricsBackend.recorder(metrics));
            group = metrics.addGroup(METRIC_GROUP);
            written = group.counter("written");
            unchanged = group.counter("unchanged");
            retries = group.counter("retries");
        }

        @Override
        public void commit(Collection<CommitRequest<ParkedGap>> requests)
                throws InterruptedException {
            for (CommitRequest<ParkedGap> r : requests) {
                commitOne(r);
            }
        }

        private void commitOne(CommitRequest<ParkedGap> r) throws InterruptedException {
            ParkedGap g = r.getCommittable();
            UpdateItemRequest req = ApTag.tag(request(table, job, operator, g), AP);
            for (int attempt = 1; ; attempt++) {
                try {
                    ddb.updateItem(req);
                    written.inc();
                    byChange.computeIfAbsent(
                                    g.getChange(), k -> group.counter("change." + k.name()))
                            .inc();
                    return;
                } catch (ConditionalCheckFailedException e) {
                    unchanged.inc(); // settled, or a newer observation is stored already
                    return;
                } catch (RuntimeException ex) {
                    if (!DynamoDbErrorClassifier.isRetryable(ex)) {
                        r.signalFailedWithUnknownReason(
                                new IOException(
                                        "parked gap "
                                                + g
                                                + " not written: "
                                                + DynamoDbErrorClassifier.describe(ex),
                                        ex));
                        return;
                    }
                    retries.inc();
                    if (attempt >= maxAttempts) {
                        r.retryLater();
                        return;
                    }
                    Thread.sleep(backoff.delayMillis(attempt));
                }
            }
        }

        @Override
        public void close() {
            ddb.close();
        }
    }
}
