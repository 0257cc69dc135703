package io.streamledger.aws.tables;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.model.contract.CapacityCli;
import io.streamledger.model.table.TableNaming;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code capacity verify} against a deployment: the seed's capacity contract ({@code model} {@link
 * CapacityCli}), then per table its Global Tables mode, whether that mode is allowed ({@code model}
 * {@code TablePolicy}), point-in-time recovery and deletion protection. Exits non-zero on a
 * contract inconsistency, on AP08/AP09/AP12 on MREC replicas, and with {@code --require-recovery}
 * on an authority table without its recovery settings.
 */
@Command(
        name = "capacity verify",
        mixinStandardHelpOptions = true,
        description =
                "Verify the capacity contract and report each table's Global Tables mode, PITR and"
                        + " deletion protection.")
public final class TableSettingsCli implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--dynamodb-endpoint", description = "DynamoDB endpoint (default: AWS)")
    @Nullable
    URI endpoint;

    @Option(names = "--region", defaultValue = "us-east-1")
    String region;

    @Option(names = "--table-prefix", defaultValue = "", description = "deployment prefix")
    String prefix;

    @Option(
            names = "--require-recovery",
            description = "fail when an authority table lacks PITR or deletion protection")
    boolean requireRecovery;

    /** The contract verifier's own options ({@code --contract}, {@code --render}). */
    @Unmatched List<String> contractArgs = new ArrayList<>();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        return new CommandLine(new TableSettingsCli());
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<String> verify = new ArrayList<>(List.of("verify"));
        verify.addAll(contractArgs);
        CommandLine contract = CapacityCli.commandLine();
        contract.setOut(out);
        contract.setErr(spec.commandLine().getErr());
        int exit = contract.execute(verify.toArray(String[]::new));
        try (DynamoDbClient ddb =
                DynamoDbClientConfig.forEndpoint(endpoint, region).build().buildSyncClient()) {
            List<TableSettings> tables = GlobalTablesCheck.describe(ddb, new TableNaming(prefix));
            out.println();
            out.println(
                    "tables (prefix '"
                            + prefix
                            + "'): mode, allowed, PITR, deletion protection, authority");
            for (TableSettings t : tables) {
                out.println(line(t));
            }
            List<String> refused = GlobalTablesCheck.violations(tables);
            refused.forEach(r -> out.println("REFUSED " + r));
            boolean recoveryMissing = tables.stream().anyMatch(TableSettings::recoveryMissing);
            if (!refused.isEmpty() || (requireRecovery && recoveryMissing)) {
                exit = CapacityCli.INCONSISTENT;
            }
        }
        out.flush();
        return exit;
    }

    static String line(TableSettings t) {
        if (!t.exists()) {
            return String.format("  %-16s absent", t.logicalName());
        }
        return String.format(
                "  %-16s %-28s %-26s PITR %-3s deletion protection %-3s %s",
                t.logicalName(),
                t.mode(),
                t.violation() == null
                        ? (t.policy().forbidsMrec() ? "ok (MREC never)" : "ok (MREC allowed)")
                        : "REFUSED",
                t.pitr() ? "on" : "off",
                t.deletionProtection() ? "on" : "off",
                t.policy().authority()
                        ? (t.recoveryMissing() ? "authority: MISSING" : "authority")
                        : "");
    }
}
