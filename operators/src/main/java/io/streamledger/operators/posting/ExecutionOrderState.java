package io.streamledger.operators.posting;

import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.gate.OpenGap;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.OutputTag;

/**
 * Uids, names, types and keyed state of the posting job's per-account execution-order gate (CS07
 * applied to postings, AP13 semantics), defined once.
 *
 * <p>The gate runs the shared {@link io.streamledger.operators.gate.NextVersionGate}, so its keyed
 * state uses the gate's descriptors under this operator's own uid; they are restated here so the
 * posting job's savepoint contract is readable in one place. Renaming any of them orphans state.
 */
public final class ExecutionOrderState {

    private ExecutionOrderState() {}

    /** Key of the gate: {@link TradeFill#accountKey()} (tenant + client account). */
    public static final TypeInformation<String> ACCOUNT_KEY = Types.STRING;

    public static final TypeInformation<GateEvent> GATE_EVENT = GateState.GATE_EVENT;

    public static final String STAMP_UID = "posting-exec-order-stamp-v1";
    public static final String STAMP_NAME = "posting: fill → account sequence (CS07)";
    public static final String GATE_UID = "posting-exec-order-gate-v1";
    public static final String GATE_NAME = "posting: per-account execution order gate (AP13/CS07)";
    public static final String UNWRAP_UID = "posting-exec-order-unwrap-v1";
    public static final String UNWRAP_NAME = "posting: ordered fills";
    public static final String STALE_REPLAYS_UID = "posting-exec-order-stale-replays-v1";
    public static final String STALE_REPLAYS_NAME = "posting: replayed fills found stale";

    /** Metric group of the stamp operator (the gate reports under the gate's group). */
    public static final String METRIC_GROUP = "executionOrder";

    /** The account's last posted execution sequence; absent means 0 (expects 1). */
    public static final ValueStateDescriptor<Long> CURRENT_SEQUENCE = GateState.VERSION;

    /** Fills above {@code current + 1}, by sequence, waiting for the missing one. */
    public static final MapStateDescriptor<Long, GateEvent> PARKED = GateState.PARKED;

    /** Present exactly while the account holds parked fills. */
    public static final ValueStateDescriptor<OpenGap> OPEN_GAP = GateState.OPEN_GAP;

    /** Fills stamped before the account sequence existed: posted in arrival order, counted. */
    public static final OutputTag<TradeFill> UNSEQUENCED =
            new OutputTag<>("posting-unsequenced", PostingState.FILL);
}
