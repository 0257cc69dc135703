package io.streamledger.operators.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;

/** Builds gate harnesses with Kryo disabled and reads their outputs as plain lists. */
final class GateTestSupport {

    private GateTestSupport() {}

    static GateEvent ev(String key, long version) {
        return ev(key, version, key + "-e" + version);
    }

    static GateEvent ev(String key, long version, String eventId) {
        return new GateEvent(key, version, eventId, 0L, 0L, "TestEvent", "{\"v\":" + version + "}");
    }

    static KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> gateHarness(
            GateConfig config, OperatorSubtaskState restoreFrom) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new NextVersionGateOperator(new NextVersionGate(config)),
                        new SourceKeySelector(),
                        GateState.SOURCE_KEY);
        return start(h, restoreFrom);
    }

    /** One subtask of a gate running with {@code subtasks} parallel instances. */
    static KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> gateSubtask(
            GateConfig config,
            int maxParallelism,
            int subtasks,
            int subtask,
            OperatorSubtaskState restoreFrom)
            throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new NextVersionGateOperator(new NextVersionGate(config)),
                        new SourceKeySelector(),
                        GateState.SOURCE_KEY,
                        maxParallelism,
                        subtasks,
                        subtask);
        return start(h, restoreFrom);
    }

    static KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> inboxHarness(
            GateConfig config, OperatorSubtaskState restoreFrom) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new org.apache.flink.streaming.api.operators.KeyedProcessOperator<>(
                                new InboxDedupe(config)),
                        new SourceKeySelector(),
                        GateState.SOURCE_KEY);
        return start(h, restoreFrom);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> start(
            KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> h,
            OperatorSubtaskState restoreFrom)
            throws Exception {
        // any state or output type that fell back to Kryo would now fail to build its serializer
        h.getExecutionConfig().disableGenericTypes();
        h.setup(
                GateState.GATE_EVENT.createSerializer(
                        h.getExecutionConfig().getSerializerConfig()));
        if (restoreFrom != null) {
            h.initializeState(restoreFrom);
        }
        h.open();
        return h;
    }

    static NextVersionGate gateOf(
            KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> h) {
        return ((NextVersionGateOperator) h.getOperator()).getUserFunction();
    }

    /** Main output values, then clears nothing: tests read cumulative output. */
    static List<Long> appliedVersions(
            KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> h) {
        List<Long> out = new ArrayList<>();
        for (GateEvent e : h.extractOutputValues()) {
            out.add(e.getVersion());
        }
        return out;
    }

    static <T> List<T> side(
            KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> h,
            OutputTag<T> tag) {
        Queue<StreamRecord<T>> q = h.getSideOutput(tag);
        List<T> out = new ArrayList<>();
        if (q != null) {
            for (StreamRecord<T> r : q) {
                out.add(r.getValue());
            }
        }
        return out;
    }
}
