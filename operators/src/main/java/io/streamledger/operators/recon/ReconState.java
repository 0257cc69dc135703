package io.streamledger.operators.recon;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.OutputTag;

/** The reconciliation operator's wire contract (AP14/AP15): types, uids, the break side output. */
public final class ReconState {

    public static final TypeInformation<ReconEvent> EVENT = Types.POJO(ReconEvent.class);
    public static final TypeInformation<ReconBatch> BATCH = Types.POJO(ReconBatch.class);
    public static final TypeInformation<BreakRecord> BREAK = Types.POJO(BreakRecord.class);

    public static final OutputTag<BreakRecord> BREAKS = new OutputTag<>("recon-breaks", BREAK);

    public static final String FILL_TIMESTAMPS_UID = "recon-fill-timestamps-v1";
    public static final String LEDGER_TIMESTAMPS_UID = "recon-ledger-timestamps-v1";
    public static final String WINDOW_UID = "recon-window-v1";
    public static final String WINDOW_NAME = "reconciliation: fills <-> ledger <-> projection";

    private ReconState() {}
}
