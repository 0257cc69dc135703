package io.streamledger.savepoints.inspect;

import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.gate.OpenGap;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.util.Collector;

/** Reads the gate's keyed state of one key through the shared {@link GateState} descriptors. */
final class GateStateReader extends KeyedStateReaderFunction<String, GateKeyState> {

    private static final long serialVersionUID = 1L;

    private transient ValueState<Long> version;
    private transient MapState<Long, GateEvent> parked;
    private transient ValueState<OpenGap> gap;

    // KeyedStateReaderFunction in 1.20.0 still declares the Configuration variant abstract
    @Override
    public void open(Configuration parameters) {
        version = getRuntimeContext().getState(GateState.VERSION);
        parked = getRuntimeContext().getMapState(GateState.PARKED);
        gap = getRuntimeContext().getState(GateState.OPEN_GAP);
    }

    @Override
    public void readKey(String key, Context ctx, Collector<GateKeyState> out) throws Exception {
        Long v = version.value();
        int n = 0;
        for (Long ignored : parked.keys()) {
            n++;
        }
        OpenGap g = gap.value();
        out.collect(
                new GateKeyState(key, v == null ? 0 : v, n, g == null ? 0 : g.getMissingVersion()));
    }
}
