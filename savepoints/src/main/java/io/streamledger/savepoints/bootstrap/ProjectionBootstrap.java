package io.streamledger.savepoints.bootstrap;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.gate.SourceKeySelector;
import io.streamledger.operators.projection.ProjectionState;
import io.streamledger.savepoints.export.ExportManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.OperatorTransformation;
import org.apache.flink.state.api.SavepointWriter;
import org.apache.flink.state.api.StateBootstrapTransformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The State Processor API job of the rebuild (CS09 step 4; AP13): reads a checked export of the
 * Ledger table, and in one batch run writes (a) a savepoint for the projection job with the gate's
 * {@code gate-version} and the tracker's {@code projection-checkpoint} per source key at the
 * exported authority version, under the job's own uids and descriptors ({@link GateState}, {@link
 * ProjectionState}), and (b) the view and checkpoint rows of the NEW namespace — both only for the
 * authorities within the namespace's view scope, as the job it restores projects them.
 *
 * <p>The gate's parked/open-gap state and the inbox receipts stay empty: an export holds one
 * version per key and no parked events, and every stream record at or below the exported version is
 * stale at the version gate whatever the inbox holds.
 */
public final class ProjectionBootstrap {

    /** Flink's default for parallelism up to 128; the projection job does not override it. */
    public static final int DEFAULT_MAX_PARALLELISM = 128;

    private final ExportManifest export;
    private final Namespace target;
    private final DynamoDbClientConfig client;
    private final int maxParallelism;
    private final StateBackend stateBackend;

    public ProjectionBootstrap(
            ExportManifest export,
            Namespace target,
            DynamoDbClientConfig client,
            int maxParallelism) {
        this.export = Objects.requireNonNull(export, "export");
        this.target = Objects.requireNonNull(target, "target");
        this.client = Objects.requireNonNull(client, "client");
        this.maxParallelism = maxParallelism;
        this.stateBackend = new HashMapStateBackend();
    }

    /** Figures of one run. */
    public record Result(String savepointPath, long authorities, long exportItems, long millis) {
        public double authoritiesPerSecond() {
            return millis == 0 ? 0 : authorities * 1000.0 / millis;
        }
    }

    /**
     * Adds the bootstrap to {@code env} (switched to BATCH) and runs it.
     *
     * @param savepointPath directory the savepoint is written to (must not exist yet)
     */
    public Result run(StreamExecutionEnvironment env, String savepointPath) throws Exception {
        return run(env, savepointPath, items -> {});
    }

    /**
     * As {@link #run(StreamExecutionEnvironment, String)}, reporting the export items read so far
     * about once a second while the job runs (for the CLI's progress line).
     */
    public Result run(StreamExecutionEnvironment env, String savepointPath, LongConsumer progress)
            throws Exception {
        long start = System.currentTimeMillis();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        // no disableGenericTypes() here: the State Processor API's own TaggedOperatorSubtaskState
        // is a generic type; the project's types all carry explicit TypeInformation
        List<Integer> fileIndexes = new ArrayList<>();
        for (int i = 0; i < export.files().size(); i++) {
            fileIndexes.add(i);
        }
        DataStream<GateEvent> authorities =
                env.fromData(fileIndexes, Types.INT)
                        .rebalance()
                        .flatMap(new ReadExportFile(export, target.scope()), GateState.GATE_EVENT)
                        .name("bootstrap: read export files (CS09)");

        StateBootstrapTransformation<GateEvent> gate =
                OperatorTransformation.bootstrapWith(authorities)
                        .keyBy(new SourceKeySelector(), GateState.SOURCE_KEY)
                        .transform(new GateVersionBootstrapper());
        StateBootstrapTransformation<GateEvent> tracker =
                OperatorTransformation.bootstrapWith(authorities)
                        .keyBy(new SourceKeySelector(), GateState.SOURCE_KEY)
                        .transform(new TrackerBootstrapper());

        SavepointWriter.newSavepoint(env, stateBackend, maxParallelism)
                .withOperator(OperatorIdentifier.forUid(GateState.NEXT_VERSION_UID), gate)
                .withOperator(OperatorIdentifier.forUid(ProjectionState.TRACKER_UID), tracker)
                .write(savepointPath);

        authorities.sinkTo(new NamespaceRowSink(client, target)).name("bootstrap: " + target);

        JobClient job = env.executeAsync("streamledger backfill bootstrap -> " + target);
        CompletableFuture<JobExecutionResult> done = job.getJobExecutionResult();
        while (!done.isDone()) {
            try {
                done.get(1, TimeUnit.SECONDS);
                break;
            } catch (TimeoutException stillRunning) {
                try {
                    Object n =
                            job.getAccumulators()
                                    .get(5, TimeUnit.SECONDS)
                                    .get(ReadExportFile.ITEMS);
                    if (n instanceof Number count) {
                        progress.accept(count.longValue());
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // accumulators are best effort while the job starts or finishes
                }
            }
        }
        JobExecutionResult r = done.get();
        progress.accept(counter(r, ReadExportFile.ITEMS));
        long auth = counter(r, ReadExportFile.AUTHORITIES);
        long items = counter(r, ReadExportFile.ITEMS);
        return new Result(savepointPath, auth, items, System.currentTimeMillis() - start);
    }

    private static long counter(JobExecutionResult r, String name) {
        Object v = r.getAllAccumulatorResults().get(name);
        return v instanceof Number n ? n.longValue() : -1;
    }
}
