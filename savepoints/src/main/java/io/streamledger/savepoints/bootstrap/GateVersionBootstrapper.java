package io.streamledger.savepoints.bootstrap;

import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.state.api.functions.KeyedStateBootstrapFunction;

/**
 * Writes the next-version gate's {@link GateState#VERSION} per source key = the exported authority
 * version (AP13): the restored job then treats every stream record at or below it as stale, so
 * catch-up needs no exact stream cut (CS09 step 5). A key exported twice is a broken export and
 * fails the bootstrap (zero duplicates).
 */
public final class GateVersionBootstrapper extends KeyedStateBootstrapFunction<String, GateEvent> {

    private static final long serialVersionUID = 1L;

    private transient ValueState<Long> version;

    @Override
    public void open(OpenContext ctx) {
        version = getRuntimeContext().getState(GateState.VERSION);
    }

    @Override
    public void processElement(GateEvent e, Context ctx) throws Exception {
        Long seen = version.value();
        if (seen != null) {
            throw new IllegalStateException(
                    "duplicate authority in export: source key "
                            + e.getSourceKey()
                            + " at versions "
                            + seen
                            + " and "
                            + e.getVersion());
        }
        version.update(e.getVersion());
    }
}
