package io.streamledger.operators.projection;

import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/** Uids, names, types and state descriptors of the projection operators (AP13). */
public final class ProjectionState {

    private ProjectionState() {}

    public static final TypeInformation<ProjectionUpdate> UPDATE =
            Types.POJO(ProjectionUpdate.class);
    public static final TypeInformation<CheckpointState> STATE_TYPE =
            Types.POJO(CheckpointState.class);

    public static final String TRACKER_UID = "projection-checkpoint-tracker-v1";
    public static final String TRACKER_NAME = "projection: checkpoint + view rows (AP07/AP13)";

    public static final ValueStateDescriptor<CheckpointState> CHECKPOINT =
            new ValueStateDescriptor<>("projection-checkpoint", STATE_TYPE);

    /** Notices between two applied versions that still get distinct revisions. */
    public static final int REVISION_BITS = 20;

    public static final long MAX_NOTICE_SEQ = (1L << REVISION_BITS) - 1;
}
