package io.streamledger.operators.posting;

import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.gate.GateConfig;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.gate.GateStreams;
import io.streamledger.operators.gate.NextVersionGate;
import io.streamledger.operators.gate.NextVersionGateOperator;
import io.streamledger.operators.gate.SourceKeySelector;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Puts each client account's fills back into execution order before posting (CS07 applied to
 * postings, AP13 gate semantics): a fill carries its account's {@code accountExecSeq}, the shared
 * next-version gate keyed by tenant + account applies {@code current + 1}, releases parked
 * successors, counts stale/duplicate copies as no-ops, parks early ones behind a visible gap and
 * raises an AP15 break when a gap outlives its SLA; it skips a missing fill only on an operator's
 * audited request ({@link io.streamledger.operators.gate.GapSkip}). Fills without a sequence
 * (written before the stamp existed) bypass the gate, counted. A replayed fill (CS08) that joins
 * here keeps its dead-letter tag through the gate; one the gate finds stale goes on to the guard
 * (see {@link StaleReplays}).
 */
public final class ExecutionOrder {

    private ExecutionOrder() {}

    /**
     * The gate's outputs.
     *
     * @param ordered sequenced fills in execution order per account, plus the unsequenced ones
     * @param gapBreaks gaps older than the SLA (the account stays parked)
     * @param deadLetters fills the gate refused to hold (park overflow, sequence conflict)
     * @param gate every stream of the underlying gate (stale, duplicates, notices)
     */
    public record Streams(
            DataStream<TradeFill> ordered,
            DataStream<GapBreak> gapBreaks,
            DataStream<DeadLetter> deadLetters,
            GateStreams gate) {}

    public static Streams apply(DataStream<TradeFill> fills, GateConfig config) {
        return apply(fills, null, config);
    }

    /**
     * @param skips operators' audited {@link GapSkip} requests for this gate, or null for none: the
     *     only release of an account besides its missing fill
     */
    public static Streams apply(
            DataStream<TradeFill> fills, DataStream<GateEvent> skips, GateConfig config) {
        SingleOutputStreamOperator<GateEvent> sequenced =
                fills.process(new ToGateEvent(), ExecutionOrderState.GATE_EVENT)
                        .uid(ExecutionOrderState.STAMP_UID)
                        .name(ExecutionOrderState.STAMP_NAME);
        DataStream<GateEvent> gateInput = skips == null ? sequenced : sequenced.union(skips);
        SingleOutputStreamOperator<GateEvent> gated =
                gateInput
                        .keyBy(new SourceKeySelector(), ExecutionOrderState.ACCOUNT_KEY)
                        .transform(
                                ExecutionOrderState.GATE_NAME,
                                ExecutionOrderState.GATE_EVENT,
                                new NextVersionGateOperator(new NextVersionGate(config)))
                        .uid(ExecutionOrderState.GATE_UID);
        DataStream<TradeFill> ordered =
                gated.map(ExecutionOrder::fromGateEvent, PostingState.FILL)
                        .uid(ExecutionOrderState.UNWRAP_UID)
                        .name(ExecutionOrderState.UNWRAP_NAME)
                        .union(
                                sequenced.getSideOutput(ExecutionOrderState.UNSEQUENCED),
                                gated.getSideOutput(GateState.STALE)
                                        .flatMap(new StaleReplays(), PostingState.FILL)
                                        .uid(ExecutionOrderState.STALE_REPLAYS_UID)
                                        .name(ExecutionOrderState.STALE_REPLAYS_NAME));
        GateStreams gate =
                new GateStreams(
                        gated,
                        gated.getSideOutput(GateState.STALE),
                        gated.getSideOutput(GateState.DUPLICATES),
                        gated.getSideOutput(GateState.GAP_NOTICES),
                        gated.getSideOutput(GateState.GAP_BREAKS),
                        gated.getSideOutput(GateState.DEAD_LETTERS),
                        gated.getSideOutput(GateState.PARKED_GAPS),
                        gated.getSideOutput(GateState.PARKED_REPLAYS));
        return new Streams(ordered, gate.gapBreaks(), gate.deadLetters(), gate);
    }

    /**
     * The gate event of a sequenced fill: key = account, version = its execution sequence; a
     * replayed fill's entry travels as the event's replay tag (the fill's JSON does not hold it).
     */
    public static GateEvent toGateEvent(TradeFill f) {
        GateEvent e =
                new GateEvent(
                        f.accountKey(),
                        f.getAccountExecSeq(),
                        f.getEventId(),
                        f.getExecutedAtMillis(),
                        f.getIngestMillis(),
                        TradeFills.TRADE_EXECUTED,
                        TradeFills.toJson(f));
        if (f.getReplayOf() != null) {
            e.setReplayOf(f.getReplayOf());
            e.setReplayVersion(f.getReplayVersion());
        }
        return e;
    }

    /** The fill a gate event carries, with its replay tag (the inverse of {@link #toGateEvent}). */
    public static TradeFill fromGateEvent(GateEvent e) {
        TradeFill f = TradeFills.fromJson(e.getPayload());
        if (e.isReplay()) {
            f.tagReplay(DeadLetterKey.fromRef(e.getReplayOf()), e.getReplayVersion());
        }
        return f;
    }

    /**
     * Replayed fills the gate found stale go on to the guard: a posting is the fill's own effect,
     * not a newer state that subsumes it, so a fill whose sequence the account passed without it
     * (an audited skip) was never posted and posts now, after the account's later fills; the inbox
     * receipt keeps one that was posted a counted no-op (DUPLICATE). Stale fills from the stream
     * stay dropped.
     */
    static final class StaleReplays implements FlatMapFunction<GateEvent, TradeFill> {
        private static final long serialVersionUID = 1L;

        @Override
        public void flatMap(GateEvent e, Collector<TradeFill> out) {
            if (e.isReplay()) {
                out.collect(fromGateEvent(e));
            }
        }
    }

    /** Sequenced fills to gate events; unsequenced ones to the bypass, counted. */
    static final class ToGateEvent extends ProcessFunction<TradeFill, GateEvent> {
        private static final long serialVersionUID = 1L;

        private transient Counter unsequenced;

        @Override
        public void open(OpenContext openContext) {
            unsequenced =
                    getRuntimeContext()
                            .getMetricGroup()
                            .addGroup(ExecutionOrderState.METRIC_GROUP)
                            .counter("unsequenced");
        }

        @Override
        public void processElement(TradeFill f, Context ctx, Collector<GateEvent> out) {
            if (f.getAccountExecSeq() <= 0) {
                unsequenced.inc();
                ctx.output(ExecutionOrderState.UNSEQUENCED, f);
                return;
            }
            out.collect(toGateEvent(f));
        }
    }
}
