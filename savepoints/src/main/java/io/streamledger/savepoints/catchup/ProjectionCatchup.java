package io.streamledger.savepoints.catchup;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.savepoints.bootstrap.Namespace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.jobgraph.SavepointConfigOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Catch-up (CS09 step 5): the unchanged projection job, restored from the bootstrapped savepoint
 * and pointed at the new namespace, reading the Ledger stream from TRIM_HORIZON or a timestamp at
 * or before the export time. Records at or below a key's exported version are stale at the gate
 * (AP13), so the stream needs no exact cut; newer ones apply through the version-guarded sink.
 */
public final class ProjectionCatchup {

    private ProjectionCatchup() {}

    /**
     * The job options of the catch-up run.
     *
     * @param startAt stream position: null = TRIM_HORIZON, else AT_TIMESTAMP (must not be after the
     *     export time, or changes between the two would be lost)
     */
    public static Configuration jobConfig(
            Configuration base,
            Namespace ns,
            String savepointPath,
            Instant startAt,
            Instant exportTime) {
        Configuration c = new Configuration(base);
        ns.applyTo(c);
        c.set(SavepointConfigOptions.SAVEPOINT_PATH, savepointPath);
        if (startAt == null) {
            c.set(JobOptions.STARTING_POSITION, JobOptions.StartingPosition.TRIM_HORIZON);
        } else {
            if (exportTime != null && startAt.isAfter(exportTime)) {
                throw new IllegalArgumentException(
                        "catch-up must start at or before the export time "
                                + exportTime
                                + "; "
                                + startAt
                                + " would skip changes made in between");
            }
            c.set(JobOptions.STARTING_POSITION, JobOptions.StartingPosition.AT_TIMESTAMP);
            c.set(
                    JobOptions.STARTING_TIMESTAMP,
                    startAt.getEpochSecond()
                            + "."
                            + String.format("%03d", startAt.getNano() / 1_000_000));
        }
        if (c.getOptional(JobOptions.SOURCE_TABLE).isEmpty()) {
            c.set(JobOptions.SOURCE_TABLE, ns.ledgerTable());
        }
        return c;
    }

    /** Starts the catch-up on {@code env} (its configuration must carry the savepoint path). */
    public static JobClient start(StreamExecutionEnvironment env, Configuration conf)
            throws Exception {
        return start(env, conf, ChangeSources.fromConfig(conf, ProjectionJob.ROLE));
    }

    public static JobClient start(
            StreamExecutionEnvironment env, Configuration conf, RawChangeSource source)
            throws Exception {
        new ProjectionJob(source, new DynamoDbProjectionSinks(conf), conf).build(env);
        return env.executeAsync("streamledger projection catch-up");
    }

    /** The equivalent {@code flink run} for a real cluster. */
    public static String flinkRunCommand(Configuration conf, String jobJar) {
        List<String> args = new ArrayList<>();
        args.add("flink run -s " + conf.get(SavepointConfigOptions.SAVEPOINT_PATH));
        args.add("-c " + ProjectionJob.class.getName() + " " + jobJar);
        for (var option :
                List.of(
                        JobOptions.TABLE_PREFIX,
                        JobOptions.PROJECTION_NAME,
                        JobOptions.STREAM_ARN,
                        JobOptions.SOURCE_TABLE,
                        JobOptions.STARTING_POSITION,
                        JobOptions.STARTING_TIMESTAMP,
                        JobOptions.DYNAMODB_ENDPOINT)) {
            conf.getOptional(option).ifPresent(v -> args.add("--" + option.key() + " " + v));
        }
        args.add(
                "--"
                        + JobOptions.PORTFOLIO_NAMESPACE_VERSION.key()
                        + " "
                        + conf.get(JobOptions.PORTFOLIO_NAMESPACE_VERSION));
        // always named: a catch-up job of another scope than its bootstrap would break the proof
        args.add(
                "--"
                        + JobOptions.PROJECTION_SCOPE.key()
                        + " "
                        + conf.get(JobOptions.PROJECTION_SCOPE).label());
        return String.join(" \\\n    ", args);
    }
}
