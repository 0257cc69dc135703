package io.streamledger.savepoints.cli;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.TableNaming;
import io.streamledger.savepoints.bootstrap.Namespace;
import java.io.PrintWriter;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of the recovery runbook tools (CS09): {@code backfill
 * plan|export|bootstrap|catchup|verify|cutover|retire}, {@code savepoint inspect PATH} and {@code
 * reconcile --from-export DIR} (AP14 from exports).
 */
@Command(
        name = "streamledger",
        mixinStandardHelpOptions = true,
        subcommands = {BackfillCommand.class, SavepointCommand.class, ReconcileCommand.class},
        description = "Projection rebuild from a DynamoDB export (seed CS09).")
public final class StreamledgerCli {

    /** Connection and naming options shared by every step. */
    static final class Connection {
        @Option(names = "--endpoint", description = "DynamoDB endpoint override (local endpoint)")
        String endpoint;

        @Option(names = "--region", defaultValue = "us-east-1")
        String region;

        @Option(names = "--access-key", description = "static credentials; default: SDK chain")
        String accessKey;

        @Option(names = "--secret-key")
        String secretKey;

        @Option(names = "--prefix", defaultValue = "", description = "table name prefix")
        String prefix;

        @Option(names = "--projection", defaultValue = "portfolio", description = "alias name")
        String projection;

        @Option(
                names = "--view-scope",
                defaultValue = "all",
                description =
                        "accounts the namespace's view holds: all, or clients (house sub-accounts"
                                + " left out); bootstrap, catchup and verify of one namespace must"
                                + " name the same (default: ${DEFAULT-VALUE})")
        String viewScope;

        Configuration config() {
            Configuration c = new Configuration();
            c.set(JobOptions.REGION, region);
            if (endpoint != null) {
                c.set(JobOptions.DYNAMODB_ENDPOINT, endpoint);
            }
            if (accessKey != null) {
                c.set(JobOptions.CREDENTIALS, JobOptions.CredentialsKind.BASIC);
                c.set(JobOptions.ACCESS_KEY_ID, accessKey);
                c.set(JobOptions.SECRET_ACCESS_KEY, secretKey == null ? "" : secretKey);
            }
            c.set(JobOptions.TABLE_PREFIX, prefix);
            return c;
        }

        DynamoDbClientConfig client() {
            return JobOptions.dynamoDbClient(config());
        }

        Namespace namespace(int version) {
            return new Namespace(
                    new TableNaming(prefix), projection, version, ViewScope.parse(viewScope));
        }
    }

    /**
     * Exit code of a refusal (a step that failed or would be unsafe); picocli's usage error is 2.
     */
    static final int REFUSED = 3;

    @Option(
            names = "--verbose",
            description = "print the stack trace of a refusal",
            scope = CommandLine.ScopeType.INHERIT)
    boolean verbose;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs without exiting (tests). */
    public static int run(String... args) {
        return run(new PrintWriter(System.err, true), args);
    }

    /**
     * Runs with refusals on {@code err}: a step that throws prints one line {@code refused: <why>}
     * and exits {@link #REFUSED}; the stack trace only with {@code --verbose}.
     */
    static int run(PrintWriter err, String... args) {
        StreamledgerCli top = new StreamledgerCli();
        boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
        return new CommandLine(top)
                .setErr(err)
                .setExecutionExceptionHandler(
                        (ex, cmd, parsed) -> {
                            String why = ex.getMessage() == null ? "" : ex.getMessage();
                            cmd.getErr()
                                    .println(
                                            "refused: "
                                                    + ex.getClass().getSimpleName()
                                                    + (why.isEmpty()
                                                            ? ""
                                                            : ": "
                                                                    + why.lines()
                                                                            .findFirst()
                                                                            .orElse("")));
                            if (verbose) {
                                ex.printStackTrace(cmd.getErr());
                            }
                            return REFUSED;
                        })
                .execute(args);
    }
}
