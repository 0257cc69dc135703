package io.streamledger.command.ops;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.command.api.ApiException;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import java.util.function.BooleanSupplier;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The ops CLIs' shared DynamoDB connection options (a picocli mixin): endpoint, region, prefix. */
public final class OpsConnection {

    @Option(
            names = "--endpoint",
            description = "DynamoDB endpoint override, e.g. http://127.0.0.1:8000")
    String endpoint;

    @Option(names = "--region", defaultValue = "us-east-1")
    String region;

    @Option(names = "--table-prefix", defaultValue = "")
    String prefix;

    @Option(names = "--access-key", description = "BASIC credentials (else the SDK default chain)")
    String accessKey;

    @Option(names = "--secret-key")
    String secretKey;

    DynamoDbClient client() {
        DynamoDbClientConfig.Builder b =
                DynamoDbClientConfig.builder().region(region).endpointOverride(endpoint);
        if (accessKey != null) {
            b.staticCredentials(accessKey, secretKey);
        }
        return b.build().buildSyncClient();
    }

    /**
     * The ops CLIs' refusal: one line {@code refused: <reason>} on stderr and exit {@code code};
     * the stack trace only when {@code verbose} says so.
     */
    static CommandLine.IExecutionExceptionHandler refusals(BooleanSupplier verbose, int code) {
        return (ex, cmd, parsed) -> {
            String why =
                    ex instanceof ApiException a
                            ? a.getMessage()
                            : ex.getClass().getSimpleName() + ": " + ex.getMessage();
            cmd.getErr().println("refused: " + why);
            if (verbose.getAsBoolean()) {
                ex.printStackTrace(cmd.getErr());
            }
            return code;
        };
    }

    /** The physical name of {@code spec} behind this prefix. */
    String table(TableSpec spec) {
        return new TableNaming(prefix).physicalName(spec);
    }
}
