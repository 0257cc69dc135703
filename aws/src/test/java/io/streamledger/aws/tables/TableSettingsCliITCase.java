package io.streamledger.aws.tables;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.table.Attr;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * {@code capacity verify} against the local endpoint: the contract still verifies, each table's
 * mode and recovery settings are reported, and {@code --require-recovery} fails until the authority
 * tables have point-in-time recovery and deletion protection.
 */
class TableSettingsCliITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    @Test
    void reportsModesAndRecoverySettingsAndFailsWithoutThemWhenRequired() {
        String prefix = "ts" + UUID.randomUUID().toString().substring(0, 6) + "_";
        String endpoint = local.endpoint().endpoint().toString();
        try (DynamoDbClient ddb = DynamoDbClientConfig.local(endpoint).buildSyncClient()) {
            for (String t : new String[] {"Ledger", "Execution"}) {
                ddb.createTable(
                        b ->
                                b.tableName(prefix + t)
                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                        .attributeDefinitions(attr(Attr.PK), attr(Attr.SK))
                                        .keySchema(
                                                key(Attr.PK, KeyType.HASH),
                                                key(Attr.SK, KeyType.RANGE)));
            }
            String[] args = {"--dynamodb-endpoint", endpoint, "--table-prefix", prefix};
            Run report = run(args);
            assertThat(report.exit).isZero();
            assertThat(report.out)
                    .contains("capacity")
                    .containsPattern("Ledger +single-Region +ok \\(MREC never\\) +PITR off")
                    .contains("authority: MISSING")
                    .containsPattern("Inbox +absent");
            assertThat(run(append(args, "--require-recovery")).exit).isEqualTo(1);

            RecoverySettings.enable(ddb, "Ledger", prefix + "Ledger");
            Run fixed = run(append(args, "--require-recovery"));
            assertThat(fixed.exit).isZero();
            assertThat(fixed.out)
                    .containsPattern("Ledger .*PITR on +deletion protection on +authority");
        }
    }

    private record Run(int exit, String out) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cli = TableSettingsCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(new StringWriter()));
        int exit = cli.execute(args);
        return new Run(exit, out.toString());
    }

    private static String[] append(String[] args, String more) {
        String[] out = java.util.Arrays.copyOf(args, args.length + 1);
        out[args.length] = more;
        return out;
    }

    private static AttributeDefinition attr(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
