package io.streamledger.operators.recon;

import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.OutputTag;

/** The reconciliation operator's wire contract (AP14/AP15): types, uids, the break side output. */
public final class ReconState {

    public static final TypeInformation<ReconEvent> EVENT = Types.POJO(ReconEvent.class);
    public static final TypeInformation<ReconBatch> BATCH = Types.POJO(ReconBatch.class);
    public static final TypeInformation<BreakRecord> BREAK = Types.POJO(BreakRecord.class);

    /** A window firing on its way to the positions read and the batch plan (not in state). */
    public static final TypeInformation<ReconWindowResult> RESULT =
            Types.POJO(ReconWindowResult.class);

    public static final OutputTag<BreakRecord> BREAKS = new OutputTag<>("recon-breaks", BREAK);

    /** Records later than the allowed lateness: not reconciled by their window, surfaced here. */
    public static final OutputTag<ReconEvent> LATE = new OutputTag<>("recon-late", EVENT);

    public static final String FILL_TIMESTAMPS_UID = "recon-fill-timestamps-v1";
    public static final String LEDGER_TIMESTAMPS_UID = "recon-ledger-timestamps-v1";
    public static final String WINDOW_UID = "recon-window-v1";
    public static final String WINDOW_NAME = "reconciliation: fills <-> ledger per window";
    public static final String POSITIONS_UID = "recon-positions-v1";
    public static final String POSITIONS_NAME =
            "reconciliation: Portfolio rows of the window's authorities (async)";
    public static final String FINISH_UID = "recon-finish-v1";
    public static final String FINISH_NAME = "reconciliation: positions check + batch (AP14/AP15)";

    public static final String ORDER_FILL_FILTER_UID = "recon-order-fill-inputs-v1";
    public static final String ORDER_FILL_UID = "recon-order-fill-v1";
    public static final String ORDER_FILL_NAME = "reconciliation: orders <-> fills per order";
    public static final String ORDER_TIMESTAMPS_UID = "recon-order-timestamps-v1";

    /** The order ↔ fill check's versions of one order (version → ORDER event). */
    public static final MapStateDescriptor<Long, ReconEvent> ORDER_FILL_VERSIONS =
            new MapStateDescriptor<>("order-fill-versions", Types.LONG, EVENT);

    /** The order ↔ fill check's trades of one order (tradeId → FILL event). */
    public static final MapStateDescriptor<String, ReconEvent> ORDER_FILL_TRADES =
            new MapStateDescriptor<>("order-fill-trades", Types.STRING, EVENT);

    /** The latest deadline registered for the order; its state is cleared a retention later. */
    public static final ValueStateDescriptor<Long> ORDER_FILL_LAST_DEADLINE =
            new ValueStateDescriptor<>("order-fill-last-deadline", Types.LONG);

    /** Event time an order's evidence is kept after its last deadline (one day). */
    public static final long ORDER_FILL_RETENTION_MILLIS = 24L * 60 * 60 * 1000;

    public static final String LATE_ROUTING_UID = "recon-late-routing-v1";

    /** Late records a batch manifest names (all are counted and dead-lettered). */
    public static final int LATE_LISTED = 50;

    /** Position reads in flight per subtask, and their bound. */
    public static final int POSITIONS_CAPACITY = 16;

    public static final long POSITIONS_TIMEOUT_MILLIS = 60_000;

    private ReconState() {}
}
