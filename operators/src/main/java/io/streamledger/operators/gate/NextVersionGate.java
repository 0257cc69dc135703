package io.streamledger.operators.gate;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Applies each source key's versions strictly in order, parks early ones behind a visible gap and
 * turns a gap older than its SLA into a break, skipping a version only on an operator's request
 * (AP13, CS06, CS07).
 *
 * <p>Per event, with {@code current} the key's last applied version (0 before the first):
 *
 * <ol>
 *   <li>{@code version <= current}: stale (a re-delivery or a late copy), counted, to {@link
 *       GateState#STALE}.
 *   <li>{@code version == current + 1}: applied (main output), then every parked {@code current +
 *       1} is released in order.
 *   <li>already parked at that version: same eventId is a counted duplicate; a different eventId is
 *       a {@link DeadLetterReason#VERSION_CONFLICT}.
 *   <li>key already holds {@code maxParkedPerKey}: the incoming event is dead-lettered ({@link
 *       DeadLetterReason#PARK_OVERFLOW}); what is parked stays parked.
 *   <li>otherwise parked; the first park opens a gap (notice + SLA timer).
 * </ol>
 *
 * <p>When the SLA timer fires the key stays parked and one {@link GapBreak} names the missing
 * version; if a late arrival then moves the key onto a new missing version while it is still
 * blocked, that version is overdue too and gets its own break at once. Draining the parked events
 * closes the gap and deletes a pending timer. Break ids are deterministic, so a replay from an
 * older checkpoint re-emits the same ids.
 *
 * <p>A {@link GapSkip} request on the same input is the only other release: naming the key's
 * missing version while the key is blocked, it applies that version as a no-op and releases the
 * parked ones like an arrival; naming a version at or below the applied one it is a counted no-op
 * (the version arrived first); naming any other version it changes nothing and is refused. Each
 * transition of a blocked key (opened, moved, overdue, arrived, skipped) goes to {@link
 * GateState#PARKED_GAPS} for the durable record; an applied event that finds its key unblocked
 * writes nothing there.
 *
 * <p>A replayed event (CS08, {@link GateEvent#isReplay()}) meets the same rules; when it parks, or
 * re-delivers a parked copy of itself (it then takes that copy's place, so its release carries the
 * replay's tag), one {@link ParkedReplay} goes to {@link GateState#PARKED_REPLAYS}.
 */
public class NextVersionGate extends KeyedProcessFunction<String, GateEvent, GateEvent> {

    private static final long serialVersionUID = 1L;

    /** Freshness samples kept for percentiles. */
    static final int FRESHNESS_WINDOW = 4096;

    /** One applied event in this many feeds the freshness histogram (its update takes a lock). */
    static final int FRESHNESS_SAMPLE_EVERY = 16;

    private final GateConfig config;

    private transient ValueState<Long> versionState;
    private transient MapState<Long, GateEvent> parkedState;
    private transient ValueState<OpenGap> gapState;

    private transient ParkingTracker tracker;
    private transient BlockedKeys blockedKeys;
    private transient Counter applied;
    private transient Counter stale;
    private transient Counter duplicates;
    private transient Counter parkedTotal;
    private transient Counter releasedTotal;
    private transient Counter deadLettered;
    private transient Counter gapsOpened;
    private transient Counter gapBreaks;
    private transient Counter gapsArrived;
    private transient Counter gapsSkipped;
    private transient Counter skipNoops;
    private transient Counter skipRefused;
    private transient DescriptiveStatisticsHistogram freshness;
    // written per event with a release store (lazySet), read by the metric reporter thread;
    // a volatile write per event would cost a full fence
    private transient AtomicLong sourceLagMillis;
    private transient int appliedSinceSample;

    public NextVersionGate(GateConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    public void open(OpenContext openContext) {
        versionState = getRuntimeContext().getState(GateState.VERSION);
        parkedState = getRuntimeContext().getMapState(GateState.PARKED);
        gapState = getRuntimeContext().getState(GateState.OPEN_GAP);
        tracker = new ParkingTracker();
        blockedKeys = new BlockedKeys();
        sourceLagMillis = new AtomicLong();

        MetricGroup g = getRuntimeContext().getMetricGroup().addGroup(GateState.METRIC_GROUP);
        applied = g.counter("applied");
        stale = g.counter("stale");
        duplicates = g.counter("duplicates");
        parkedTotal = g.counter("parkedTotal");
        releasedTotal = g.counter("released");
        deadLettered = g.counter("deadLettered");
        gapsOpened = g.counter("gapsOpened");
        gapBreaks = g.counter("gapBreaks");
        gapsArrived = g.counter("gapsArrived");
        gapsSkipped = g.counter("gapsSkipped");
        skipNoops = g.counter("skipNoops");
        skipRefused = g.counter("skipRefused");
        g.gauge("parked", tracker::parked);
        g.gauge("openGaps", tracker::openGaps);
        g.gauge("oldestGapAgeMs", () -> tracker.oldestGapAgeMillis(System.currentTimeMillis()));
        g.gauge("sourceLagMs", sourceLagMillis::get);
        freshness =
                g.histogram("freshnessMs", new DescriptiveStatisticsHistogram(FRESHNESS_WINDOW));
    }

    /** Operator-wide parking totals; exposed for the restoring operator and tests. */
    public ParkingTracker tracker() {
        return tracker;
    }

    /** This subtask's blocked keys; rebuilt and marked complete by the restoring operator. */
    BlockedKeys blockedKeys() {
        return blockedKeys;
    }

    @Override
    public void processElement(GateEvent e, Context ctx, Collector<GateEvent> out)
            throws Exception {
        long now = ctx.timerService().currentProcessingTime();
        if (GapSkip.isSkip(e)) {
            skip(e, now, ctx, out);
            return;
        }
        // lag behind the stream: ingest time when the mapper knows it, else the event time
        long entered =
                e.getIngestTimeMillis() > 0 ? e.getIngestTimeMillis() : e.getEventTimeMillis();
        if (entered > 0) {
            sourceLagMillis.lazySet(now - entered);
        }
        Long stored = versionState.value();
        long current = stored == null ? 0L : stored;
        long v = e.getVersion();

        if (v <= current) {
            stale.inc();
            ctx.output(GateState.STALE, e);
            return;
        }
        // most keys are not blocked: skip reading their (absent) gap
        OpenGap gap = blockedKeys.mayBeBlocked(ctx.getCurrentKey()) ? gapState.value() : null;
        if (v == current + 1) {
            emit(e, now, out);
            current = v;
            if (gap != null) {
                current = release(current, gap, now, ctx, out, ParkedGapChange.ARRIVED, null);
            }
            versionState.update(current);
            return;
        }
        park(e, current, gap, now, ctx);
    }

    /** An operator's skip of one missing version (see the class comment). */
    private void skip(GateEvent request, long now, Context ctx, Collector<GateEvent> out)
            throws Exception {
        Long stored = versionState.value();
        long current = stored == null ? 0L : stored;
        long v = request.getVersion();
        String actor = request.getPayload();
        OpenGap gap = blockedKeys.mayBeBlocked(ctx.getCurrentKey()) ? gapState.value() : null;
        if (v <= current) {
            skipNoops.inc();
            ctx.output(
                    GateState.PARKED_GAPS,
                    new ParkedGap(
                            ctx.getCurrentKey(),
                            ParkedGapChange.SKIP_NOOP,
                            v,
                            gap == null ? now : gap.getSinceMillis(),
                            gap == null ? now : gap.getTimerAtMillis(),
                            0,
                            new long[0],
                            false,
                            now,
                            actor,
                            "version "
                                    + v
                                    + " was applied before the skip (current "
                                    + current
                                    + ")"));
            return;
        }
        if (gap == null || gap.getMissingVersion() != v) {
            skipRefused.inc();
            ctx.output(
                    GateState.PARKED_GAPS,
                    new ParkedGap(
                            ctx.getCurrentKey(),
                            ParkedGapChange.SKIP_REFUSED,
                            v,
                            gap == null ? now : gap.getSinceMillis(),
                            gap == null ? now : gap.getTimerAtMillis(),
                            gap == null ? 0 : gap.getParkedCount(),
                            new long[0],
                            gap != null && gap.overdue(),
                            now,
                            actor,
                            gap == null
                                    ? "the key is not blocked (current " + current + ")"
                                    : "the key waits for version " + gap.getMissingVersion()));
            return;
        }
        // the missing version counts as applied (a no-op); the parked ones follow in order
        current = release(v, gap, now, ctx, out, ParkedGapChange.SKIPPED, actor);
        versionState.update(current);
    }

    private void park(GateEvent e, long current, OpenGap gap, long now, Context ctx)
            throws Exception {
        if (gap != null) {
            GateEvent holder = parkedState.get(e.getVersion());
            if (holder != null) {
                if (Objects.equals(holder.getEventId(), e.getEventId())) {
                    duplicates.inc();
                    if (e.isReplay()
                            && (!holder.isReplay()
                                    || holder.getReplayOf().equals(e.getReplayOf()))) {
                        // the replayed copy takes the parked place: its release settles its entry
                        parkedState.put(e.getVersion(), e);
                        parkedReplay(ctx, e, gap, now);
                    } else {
                        ctx.output(GateState.DUPLICATES, e);
                    }
                } else {
                    deadLetter(
                            ctx,
                            e,
                            now,
                            DeadLetterReason.VERSION_CONFLICT,
                            "version "
                                    + e.getVersion()
                                    + " is already parked for eventId "
                                    + holder.getEventId());
                }
                return;
            }
            if (gap.getParkedCount() >= config.maxParkedPerKey()) {
                deadLetter(
                        ctx,
                        e,
                        now,
                        DeadLetterReason.PARK_OVERFLOW,
                        "key holds "
                                + gap.getParkedCount()
                                + " parked events (max "
                                + config.maxParkedPerKey()
                                + ") waiting for version "
                                + gap.getMissingVersion());
                return;
            }
        }
        parkedState.put(e.getVersion(), e);
        parkedTotal.inc();
        tracker.parkedChanged(1);
        if (gap == null) {
            long timerAt = now + config.gapSlaMillis();
            gap = new OpenGap(current + 1, now, timerAt, 1);
            ctx.timerService().registerProcessingTimeTimer(timerAt);
            tracker.gapOpened(now);
            blockedKeys.opened(ctx.getCurrentKey());
            gapsOpened.inc();
            notice(ctx, GapStatus.OPENED, gap, now);
            record(ctx, ParkedGapChange.OPENED, gap, new long[] {e.getVersion()}, now, null);
        } else {
            gap.setParkedCount(gap.getParkedCount() + 1);
            record(ctx, ParkedGapChange.PARKED, gap, new long[] {e.getVersion()}, now, null);
        }
        if (e.isReplay()) {
            parkedReplay(ctx, e, gap, now);
        }
        gapState.update(gap);
    }

    private void parkedReplay(Context ctx, GateEvent e, OpenGap gap, long now) {
        ctx.output(GateState.PARKED_REPLAYS, new ParkedReplay(e, gap.getMissingVersion(), now));
    }

    /**
     * Releases parked {@code current+1, current+2, ...}; returns the new current version. The gap's
     * old missing version closes as {@code closedAs} (arrived, or skipped by {@code actor}).
     */
    private long release(
            long current,
            OpenGap gap,
            long now,
            Context ctx,
            Collector<GateEvent> out,
            ParkedGapChange closedAs,
            String actor)
            throws Exception {
        int held = gap.getParkedCount();
        long[] heldVersions = closedAs == ParkedGapChange.SKIPPED ? parkedVersions() : null;
        int released = 0;
        GateEvent next;
        while ((next = parkedState.get(current + 1)) != null) {
            parkedState.remove(current + 1);
            emit(next, now, out);
            current++;
            released++;
        }
        tracker.parkedChanged(-released);
        releasedTotal.inc(released);
        gap.setParkedCount(gap.getParkedCount() - released);
        (closedAs == ParkedGapChange.SKIPPED ? gapsSkipped : gapsArrived).inc();
        ParkedGap closed =
                new ParkedGap(
                        ctx.getCurrentKey(),
                        closedAs,
                        gap.getMissingVersion(),
                        gap.getSinceMillis(),
                        gap.getTimerAtMillis(),
                        held,
                        heldVersions == null ? new long[0] : heldVersions,
                        gap.overdue(),
                        now,
                        actor,
                        "released " + released + " parked version(s)");
        ctx.output(GateState.PARKED_GAPS, closed);

        if (gap.getParkedCount() == 0) {
            if (!gap.overdue()) {
                ctx.timerService().deleteProcessingTimeTimer(gap.getTimerAtMillis());
            }
            tracker.gapClosed(gap.getSinceMillis());
            blockedKeys.closed(ctx.getCurrentKey());
            notice(ctx, GapStatus.CLOSED, gap, now);
            gapState.clear();
            return current;
        }
        if (gap.getParkedCount() < 0) {
            throw new IllegalStateException(
                    "parked count went negative for " + ctx.getCurrentKey() + ": " + gap);
        }
        // still blocked, now on a higher version: close the old gap, open the next one
        notice(ctx, GapStatus.CLOSED, gap, now);
        gap.setMissingVersion(current + 1);
        notice(ctx, GapStatus.OPENED, gap, now);
        if (gap.overdue()) {
            // blocked longer than the SLA already: the new missing version is overdue too
            emitBreak(ctx, gap, now);
        }
        record(ctx, ParkedGapChange.OPENED, gap, parkedVersions(), now, null);
        gapState.update(gap);
        return current;
    }

    /**
     * The parked versions of the current key, ascending; at most {@code maxParkedPerKey}, read only
     * when a gap moves, becomes overdue or is skipped.
     */
    private long[] parkedVersions() throws Exception {
        java.util.List<Long> all = new java.util.ArrayList<>();
        parkedState.keys().forEach(all::add);
        return all.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private void record(
            Context ctx,
            ParkedGapChange change,
            OpenGap gap,
            long[] parkedVersions,
            long now,
            String actor) {
        ctx.output(
                GateState.PARKED_GAPS,
                new ParkedGap(
                        ctx.getCurrentKey(),
                        change,
                        gap.getMissingVersion(),
                        gap.getSinceMillis(),
                        gap.getTimerAtMillis(),
                        gap.getParkedCount(),
                        parkedVersions,
                        gap.overdue(),
                        now,
                        actor,
                        null));
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<GateEvent> out)
            throws Exception {
        OpenGap gap = gapState.value();
        if (gap == null || gap.getTimerAtMillis() != timestamp || gap.overdue()) {
            return; // a timer of a closed gap that could not be deleted; nothing is blocked
        }
        emitBreak(ctx, gap, timestamp);
        record(ctx, ParkedGapChange.OVERDUE, gap, parkedVersions(), timestamp, null);
        gapState.update(gap);
    }

    private void emitBreak(Context ctx, OpenGap gap, long now) {
        gap.setLastBreakVersion(gap.getMissingVersion());
        gapBreaks.inc();
        ctx.output(
                GateState.GAP_BREAKS,
                new GapBreak(
                        ctx.getCurrentKey(),
                        gap.getMissingVersion(),
                        gap.getSinceMillis(),
                        now,
                        config.gapSlaMillis(),
                        gap.getParkedCount()));
    }

    private void emit(GateEvent e, long now, Collector<GateEvent> out) {
        out.collect(e);
        applied.inc();
        if (++appliedSinceSample >= FRESHNESS_SAMPLE_EVERY && e.getEventTimeMillis() > 0) {
            appliedSinceSample = 0;
            freshness.update(Math.max(0L, now - e.getEventTimeMillis()));
        }
    }

    private void notice(Context ctx, GapStatus status, OpenGap gap, long now) {
        ctx.output(
                GateState.GAP_NOTICES,
                new GapNotice(
                        ctx.getCurrentKey(),
                        status,
                        gap.getMissingVersion(),
                        gap.getSinceMillis(),
                        now,
                        gap.getParkedCount()));
    }

    private void deadLetter(
            Context ctx, GateEvent e, long now, DeadLetterReason reason, String detail) {
        deadLettered.inc();
        ctx.output(GateState.DEAD_LETTERS, new DeadLetter(reason, detail, now, e));
    }
}
