package io.streamledger.operators.gate;

import org.apache.flink.api.java.functions.KeySelector;

/** Keys the gate by aggregate (AP13: versions count per source key). */
public final class SourceKeySelector implements KeySelector<GateEvent, String> {

    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(GateEvent e) {
        return e.getSourceKey();
    }
}
