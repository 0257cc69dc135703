package io.streamledger.operators.recon;

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

    /** Position reads in flight per subtask, and their bound. */
    public static final int POSITIONS_CAPACITY = 16;

    public static final long POSITIONS_TIMEOUT_MILLIS = 60_000;

    private ReconState() {}
}
