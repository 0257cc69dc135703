package io.streamledger.jobs.gaps;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.aws.deadletter.ParkedGapReader;
import io.streamledger.model.deadletter.ParkedGapStatus;
import io.streamledger.model.keys.ParkedGapKey;
import io.streamledger.operators.gate.GapSkip;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.source.RichSourceFunction;

/**
 * Picks up operators' audited skip requests (CS07: a parked key is released only by its missing
 * version or an explicit skip): polls the SKIP_REQUESTED queue of each configured tenant for this
 * job's gate, reads each record strongly and emits a {@link GapSkip} request onto the gate's keyed
 * input. The gate's transition (SKIPPED, a no-op, or refused) settles the record after the
 * checkpoint that holds it, so a restore before that re-emits the request. Non-parallel; a request
 * already emitted at its record version is not emitted again by this source instance.
 */
public final class SkipRequestSource extends RichSourceFunction<GateEvent>
        implements ResultTypeQueryable<GateEvent> {

    private static final long serialVersionUID = 1L;

    /** Skip requests read per tenant and poll. */
    static final int MAX_PER_POLL = 100;

    private final DynamoDbClientConfig client;
    private final String table;
    private final String job;
    private final String operator;
    private final List<String> tenants;
    private final long pollMillis;

    private transient volatile boolean running;
    private transient Counter requested;

    /**
     * @param operator uid of the gate whose requests this source takes
     * @param tenants tenants whose queues are polled (the queue key is tenant-first)
     */
    public SkipRequestSource(
            DynamoDbClientConfig client,
            String table,
            String job,
            String operator,
            List<String> tenants,
            Duration poll) {
        this.client = client;
        this.table = table;
        this.job = job;
        this.operator = operator;
        this.tenants = List.copyOf(tenants);
        this.pollMillis = Math.max(1, poll.toMillis());
    }

    @Override
    public void open(OpenContext ctx) {
        running = true;
        requested =
                getRuntimeContext()
                        .getMetricGroup()
                        .addGroup(GateState.METRIC_GROUP)
                        .counter("skipsRequested");
    }

    @Override
    public void run(SourceContext<GateEvent> ctx) throws Exception {
        Map<String, Long> emitted = new HashMap<>(); // record id → version emitted at
        try (var ddb = client.buildSyncClient()) {
            ParkedGapReader reader = new ParkedGapReader(ddb, table);
            while (running) {
                Set<String> pending = new HashSet<>();
                for (String tenant : tenants) {
                    for (ParkedGapKey key :
                            reader.queued(
                                    tenant, job, ParkedGapStatus.SKIP_REQUESTED, MAX_PER_POLL)) {
                        pending.add(key.id());
                        ParkedGapItems.View v = reader.get(key).orElse(null);
                        if (v == null
                                || v.status() != ParkedGapStatus.SKIP_REQUESTED
                                || !v.operator().equals(operator)
                                || Long.valueOf(v.version()).equals(emitted.get(v.id()))) {
                            continue;
                        }
                        synchronized (ctx.getCheckpointLock()) {
                            ctx.collect(
                                    GapSkip.request(
                                            v.sourceKey(),
                                            v.missingVersion(),
                                            v.id(),
                                            v.skipRequestedBy()));
                        }
                        emitted.put(v.id(), v.version());
                        requested.inc();
                    }
                }
                emitted.keySet().retainAll(pending); // settled records leave the queue
                ctx.markAsTemporarilyIdle();
                Thread.sleep(pollMillis);
            }
        }
    }

    @Override
    public void cancel() {
        running = false;
    }

    @Override
    public TypeInformation<GateEvent> getProducedType() {
        return GateState.GATE_EVENT;
    }
}
