package io.streamledger.savepoints.inspect;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.projection.ProjectionState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.runtime.SavepointLoader;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * {@code savepoint inspect PATH} (CS09, AP13): which operators a projection savepoint holds (named
 * by the job's uids), and for the gate the key count, version range, parked events and open gaps,
 * read through the shared state descriptors with the State Processor API.
 */
public final class SavepointInspector {

    /** Keys with an open gap listed in the summary. */
    static final int SAMPLE = 10;

    private SavepointInspector() {}

    /** What {@link #inspect} found. */
    public record Summary(
            Map<String, String> operators,
            long gateKeys,
            long minVersion,
            long maxVersion,
            long parkedEvents,
            long openGaps,
            List<String> gapSample) {

        public String render() {
            StringBuilder b = new StringBuilder("operators:\n");
            operators.forEach(
                    (id, what) -> b.append("  ").append(id).append("  ").append(what).append('\n'));
            b.append("gate (")
                    .append(GateState.NEXT_VERSION_UID)
                    .append("): keys=")
                    .append(gateKeys)
                    .append(" versions=")
                    .append(gateKeys == 0 ? "-" : minVersion + ".." + maxVersion)
                    .append(" parkedEvents=")
                    .append(parkedEvents)
                    .append(" openGaps=")
                    .append(openGaps)
                    .append('\n');
            gapSample.forEach(g -> b.append("  gap: ").append(g).append('\n'));
            return b.toString();
        }
    }

    /** Uids the project assigns, by operator id; unknown ids are shown raw. */
    static Map<OperatorID, String> knownUids() {
        List<String> uids = new ArrayList<>();
        uids.add(GateState.VALIDATE_UID);
        uids.add(GateState.NEXT_VERSION_UID);
        uids.add(GateState.INBOX_UID);
        uids.add(ProjectionState.TRACKER_UID);
        uids.add(ProjectionJob.PARSE_UID);
        uids.add(ProjectionJob.VIEW_SINK_UID);
        uids.add(ProjectionJob.CHECKPOINT_SINK_UID);
        uids.add(ProjectionJob.BREAK_SINK_UID);
        uids.add(ProjectionJob.DEAD_LETTER_SINK_UID);
        uids.add(ProjectionJob.VIEW_FILTER_UID);
        for (JobOptions.TransportKind t : JobOptions.TransportKind.values()) {
            uids.add(ChangeSources.sourceUid(ProjectionJob.ROLE, t));
        }
        uids.add(ChangeSources.watermarksUid(ProjectionJob.ROLE));
        Map<OperatorID, String> out = new LinkedHashMap<>();
        for (String uid : uids) {
            out.put(OperatorIdentifier.forUid(uid).getOperatorId(), uid);
        }
        return out;
    }

    public static Summary inspect(String path) throws Exception {
        CheckpointMetadata meta = SavepointLoader.loadSavepointMetadata(path);
        Map<OperatorID, String> known = knownUids();
        Map<String, String> operators = new LinkedHashMap<>();
        boolean hasGate = false;
        for (OperatorState s : meta.getOperatorStates()) {
            String uid = known.getOrDefault(s.getOperatorID(), "(unknown uid)");
            hasGate |= GateState.NEXT_VERSION_UID.equals(uid);
            operators.put(
                    s.getOperatorID().toHexString(),
                    uid
                            + " maxParallelism="
                            + s.getMaxParallelism()
                            + " subtaskStates="
                            + s.getSubtaskStates().size()
                            + " bytes="
                            + s.getStateSize());
        }
        if (!hasGate) {
            return new Summary(operators, 0, 0, 0, 0, 0, List.of());
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        SavepointReader reader = SavepointReader.read(env, path, new HashMapStateBackend());
        long keys = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long parked = 0;
        long gaps = 0;
        List<String> sample = new ArrayList<>();
        try (CloseableIterator<GateKeyState> it =
                reader.readKeyedState(
                                OperatorIdentifier.forUid(GateState.NEXT_VERSION_UID),
                                new GateStateReader(),
                                Types.STRING,
                                Types.POJO(GateKeyState.class))
                        .executeAndCollect("savepoint inspect")) {
            while (it.hasNext()) {
                GateKeyState k = it.next();
                keys++;
                min = Math.min(min, k.getVersion());
                max = Math.max(max, k.getVersion());
                parked += k.getParked();
                if (k.getMissingVersion() != 0) {
                    gaps++;
                    if (sample.size() < SAMPLE) {
                        sample.add(
                                k.getSourceKey()
                                        + " at v"
                                        + k.getVersion()
                                        + " waits for v"
                                        + k.getMissingVersion()
                                        + " ("
                                        + k.getParked()
                                        + " parked)");
                    }
                }
            }
        }
        return new Summary(
                operators, keys, keys == 0 ? 0 : min, keys == 0 ? 0 : max, parked, gaps, sample);
    }
}
