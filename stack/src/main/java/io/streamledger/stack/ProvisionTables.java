package io.streamledger.stack;

import io.streamledger.command.CommandServiceMain;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Creates every table of the model's TableSpecs (IDX01–IDX19; Portfolio at namespace version 1,
 * named live by its alias item) at a DynamoDB endpoint and writes the stream ARNs the jobs read as
 * shell variables — the init step of the docker compose session cluster, where {@code flink run}
 * needs the ARNs.
 */
@Command(
        name = "provision-tables",
        mixinStandardHelpOptions = true,
        description = "Create the model's tables and print the jobs' stream ARNs (KEY=value).")
public final class ProvisionTables implements Callable<Integer> {

    @Option(names = "--endpoint", description = "DynamoDB endpoint override; unset = AWS")
    URI endpoint;

    @Option(names = "--region", defaultValue = "us-east-1")
    String region;

    @Option(names = "--table-prefix", defaultValue = "")
    String prefix;

    @Option(names = "--out", description = "write the KEY=value lines here too (e.g. streams.env)")
    Path out;

    @Option(
            names = "--recovery-settings",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description =
                    "point-in-time recovery and deletion protection on the authority tables"
                            + " (Ledger, Orders, Idempotency, Inbox; default: on)")
    boolean recoverySettings;

    @Override
    public Integer call() throws Exception {
        TableNaming naming = new TableNaming(prefix);
        try (DynamoDbClient ddb = CommandServiceMain.dynamoClient(endpoint, region)) {
            TableProvisioner.createModelTables(
                    ddb, naming, TableProvisioner.Recovery.of(recoverySettings));
            String lines =
                    "CONTEXT_STREAM_ARN="
                            + arn(ddb, naming.physicalName(Tables.CONTEXT))
                            + "\nLEDGER_STREAM_ARN="
                            + arn(ddb, naming.physicalName(Tables.LEDGER))
                            + "\n";
            PrintStream stdout = System.out;
            stdout.print(lines);
            if (out != null) {
                Files.writeString(out, lines, StandardCharsets.UTF_8);
            }
        }
        return 0;
    }

    private static String arn(DynamoDbClient ddb, String table) {
        return ddb.describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ProvisionTables()).execute(args));
    }
}
