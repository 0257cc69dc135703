package io.streamledger.operators.gate;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Wires the gate into a job in one call (AP09, AP13, CS06, CS07): validate, keyBy source key, next
 * version, inbox dedupe, each with its stable uid.
 *
 * <p>Order matters: the inbox follows the version gate on the same key without a second shuffle
 * (see {@link InboxDedupe} for why it is second).
 */
public final class Gate {

    private Gate() {}

    public static GateStreams apply(DataStream<GateEvent> input, GateConfig config) {
        return apply(input, null, config);
    }

    /**
     * @param skips operators' {@link GapSkip} requests, joined after validation onto the gate's
     *     keyed input; null for none
     */
    public static GateStreams apply(
            DataStream<GateEvent> input, DataStream<GateEvent> skips, GateConfig config) {
        SingleOutputStreamOperator<GateEvent> valid =
                input.process(new ValidateGateEvent(), GateState.GATE_EVENT)
                        .uid(GateState.VALIDATE_UID)
                        .name(GateState.VALIDATE_NAME);

        DataStream<GateEvent> gateInput = skips == null ? valid : valid.union(skips);
        SingleOutputStreamOperator<GateEvent> ordered =
                gateInput
                        .keyBy(new SourceKeySelector(), GateState.SOURCE_KEY)
                        .transform(
                                GateState.NEXT_VERSION_NAME,
                                GateState.GATE_EVENT,
                                new NextVersionGateOperator(new NextVersionGate(config)))
                        .uid(GateState.NEXT_VERSION_UID);

        // same key, same parallelism: forward and chained, no second network shuffle
        SingleOutputStreamOperator<GateEvent> applied =
                DataStreamUtils.reinterpretAsKeyedStream(
                                ordered, new SourceKeySelector(), GateState.SOURCE_KEY)
                        .process(new InboxDedupe(config), GateState.GATE_EVENT)
                        .uid(GateState.INBOX_UID)
                        .name(GateState.INBOX_NAME);

        return new GateStreams(
                applied,
                ordered.getSideOutput(GateState.STALE),
                ordered.getSideOutput(GateState.DUPLICATES)
                        .union(applied.getSideOutput(GateState.DUPLICATES)),
                ordered.getSideOutput(GateState.GAP_NOTICES),
                ordered.getSideOutput(GateState.GAP_BREAKS),
                valid.getSideOutput(GateState.DEAD_LETTERS)
                        .union(ordered.getSideOutput(GateState.DEAD_LETTERS)),
                ordered.getSideOutput(GateState.PARKED_GAPS),
                ordered.getSideOutput(GateState.PARKED_REPLAYS));
    }
}
