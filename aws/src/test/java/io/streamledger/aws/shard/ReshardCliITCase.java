package io.streamledger.aws.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.items.Av;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.keys.CheckpointKey;
import io.streamledger.model.keys.InboxKey;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.table.Attr;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * {@code capacity reshard} against the local endpoint (AP09/AP13): every step through the CLI, the
 * refusals (wrong phase, duplicated or missing receipt, horizon not passed), checkpoint rows copied
 * forward, and the write units of a receipt with and without the dual-version check.
 */
class ReshardCliITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    @TempDir Path dir;

    private String prefix;
    private DynamoDbClient ddb;

    @BeforeEach
    void tables() {
        prefix = "rc" + UUID.randomUUID().toString().substring(0, 6) + "_";
        ddb = DynamoDbClientConfig.local(local.endpoint().endpoint().toString()).buildSyncClient();
        for (String t : List.of("Inbox", "Projection")) {
            ddb.createTable(
                    b ->
                            b.tableName(prefix + t)
                                    .billingMode(BillingMode.PAY_PER_REQUEST)
                                    .attributeDefinitions(attr(Attr.PK), attr(Attr.SK))
                                    .keySchema(
                                            KeySchemaElement.builder()
                                                    .attributeName(Attr.PK)
                                                    .keyType(KeyType.HASH)
                                                    .build(),
                                            KeySchemaElement.builder()
                                                    .attributeName(Attr.SK)
                                                    .keyType(KeyType.RANGE)
                                                    .build()));
        }
    }

    @Test
    void inboxStepsRefusalsAndTheUnitsOfTheDualCheck() throws Exception {
        assertThat(run("status", "--map", "inbox").out).contains("STABLE", "v1 N=13");
        assertThat(run("plan", "--map", "inbox", "--shards", "17", "--lead", "PT1S").out)
                .contains("not written", "DUAL", "v2 N=17", "previous v1 N=13");
        assertThat(run("status", "--map", "inbox").out)
                .as("plan writes nothing")
                .contains("STABLE");
        Instant tooSoon = Instant.now().plusSeconds(2);
        Run lead =
                run(
                        "start",
                        "--map",
                        "inbox",
                        "--shards",
                        "17",
                        "--lead",
                        "PT5S",
                        "--watermark",
                        tooSoon.toString());
        assertThat(lead.code).isEqualTo(ReshardCli.REFUSED);
        assertThat(lead.err).contains("lead");
        // the default watermark: now + 2 x lead, taken once the state is read
        Run started = run("start", "--map", "inbox", "--shards", "17", "--lead", "PT0.5S");
        assertThat(started.out).as(started.err).contains("DUAL", "admission watermark");
        Instant watermark = Reshard.inbox(ddb, prefix + "Inbox", "posting").status().watermark();
        assertThat(run("cutover", "--map", "inbox").err).contains("not DRAINED");

        ShardMap v1 = ShardMap.INBOX;
        ShardMap v2 = v1.withShardCount(17);
        List<String> ids = new ArrayList<>();
        double stableUnits = 0;
        double dualUnits = 0;
        for (int i = 0; i < 60; i++) {
            String id = "evt-" + i;
            ids.add(id);
            Instant admitted = i < 30 ? watermark.minusSeconds(1) : watermark.plusSeconds(1);
            ShardMap routed = i < 30 ? v1 : v2;
            ShardMap other = i < 30 ? v2 : v1;
            stableUnits += receipt(id, routed, admitted, null);
            dualUnits += receipt("dual-" + id, routed, admitted, other);
            ids.add("dual-" + id);
        }
        // figures for the README: write units per receipt, alone and with the other version's check
        System.out.printf(
                "reshard units per receipt: stable %.2f, dual-version window %.2f%n",
                stableUnits / 60, dualUnits / 60);
        assertThat(dualUnits).isGreaterThan(stableUnits);

        Run drain =
                run(
                        "drain",
                        "--map",
                        "inbox",
                        "--settle",
                        "PT0.3S",
                        "--horizon",
                        "P30D",
                        "--timeout",
                        "PT20S");
        assertThat(drain.code).as(drain.err).isZero();
        assertThat(drain.out).contains("DRAINED", "old items kept until");

        Path expect = dir.resolve("ids.txt");
        Files.write(expect, ids);
        Run clean = run("verify", "--map", "inbox", "--expect", expect.toString());
        assertThat(clean.code).as(clean.out + clean.err).isZero();
        assertThat(clean.out)
                .contains("inbox v1 N=13: 60 items", "inbox v2 N=17: 60 items", "RECONCILED");

        // a receipt of one event under both versions, and an expected event without a receipt
        receipt("evt-0", v2, watermark.minusSeconds(1), null);
        List<String> more = new ArrayList<>(ids);
        more.add("evt-never-posted");
        Files.write(expect, more);
        Run dirty = run("verify", "--map", "inbox", "--expect", expect.toString());
        assertThat(dirty.code).isEqualTo(ReshardCli.REFUSED);
        assertThat(dirty.out)
                .contains(
                        "duplicated: 1 e.g. [evt-0]",
                        "misrouted: 1",
                        "missing: 1",
                        "NOT RECONCILED");
        assertThat(run("cutover", "--map", "inbox", "--expect", expect.toString()).code)
                .isEqualTo(ReshardCli.REFUSED);
        ddb.deleteItem(
                b ->
                        b.tableName(prefix + "Inbox")
                                .key(key(InboxKey.forEvent("posting", "evt-0", v2))));
        Files.write(expect, ids);
        Run cut = run("cutover", "--map", "inbox", "--expect", expect.toString());
        assertThat(cut.code).as(cut.err).isZero();
        assertThat(cut.out).contains("CUT_OVER");
        assertThat(run("retire", "--map", "inbox").err).contains("dedupe until");
    }

    @Test
    void checkpointRowsAreCarriedForwardAndNeverBackwards() throws Exception {
        ShardMap v1 = ShardMap.PROJECTION_CHECKPOINTS;
        ShardMap v2 = v1.withShardCount(11);
        for (int i = 0; i < 40; i++) {
            checkpoint("src-" + i, v1, 3);
        }
        Run started = run("start", "--map", "checkpoints", "--shards", "11", "--lead", "PT0.5S");
        assertThat(started.code).as(started.err).isZero();
        // the job already wrote a newer row of src-0 under v2: the copy must not undo it
        checkpoint("src-0", v2, 9);
        assertThat(run("verify", "--map", "checkpoints").out).contains("behind: 39");
        Run drain =
                run("drain", "--map", "checkpoints", "--settle", "PT0.3S", "--timeout", "PT20S");
        assertThat(drain.code).as(drain.err).isZero();
        Run verify = run("verify", "--map", "checkpoints");
        assertThat(verify.code).as(verify.out).isZero();
        assertThat(verify.out).contains("checkpoints v2 N=11: 40 items", "behind: 0");
        Map<String, AttributeValue> src0 =
                ddb.getItem(
                                b ->
                                        b.tableName(prefix + "Projection")
                                                .key(
                                                        key(
                                                                CheckpointKey.forSource(
                                                                        "portfolio", "src-0", v2)))
                                                .consistentRead(true))
                        .item();
        assertThat(src0.get(ProjectionSchema.REVISION).n()).isEqualTo("9");
        assertThat(run("cutover", "--map", "checkpoints").out).contains("CUT_OVER");
    }

    /** A receipt put like the posting sink's; returns the write units of its transaction. */
    private double receipt(String id, ShardMap map, Instant admitted, ShardMap alsoCheck) {
        InboxKey k = InboxKey.forEvent("posting", id, map);
        Map<String, AttributeValue> item = new HashMap<>(key(k));
        item.put(Attr.EVENT_ID, Av.s(id));
        item.put(Attr.SHARD_MAP_VERSION, Av.n(map.shardMapVersion()));
        item.put(Attr.ADMITTED_AT, Av.s(admitted.toString()));
        List<TransactWriteItem> tx = new ArrayList<>();
        tx.add(
                TransactWriteItem.builder()
                        .put(
                                Put.builder()
                                        .tableName(prefix + "Inbox")
                                        .item(item)
                                        .conditionExpression("attribute_not_exists(PK)")
                                        .build())
                        .build());
        if (alsoCheck != null) {
            tx.add(
                    TransactWriteItem.builder()
                            .conditionCheck(
                                    ConditionCheck.builder()
                                            .tableName(prefix + "Inbox")
                                            .key(key(InboxKey.forEvent("posting", id, alsoCheck)))
                                            .conditionExpression("attribute_not_exists(PK)")
                                            .build())
                            .build());
        }
        return ddb
                .transactWriteItems(
                        b ->
                                b.transactItems(tx)
                                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity()
                .stream()
                .mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits())
                .sum();
    }

    private void checkpoint(String source, ShardMap map, long revision) {
        Map<String, AttributeValue> item =
                new HashMap<>(key(CheckpointKey.forSource("portfolio", source, map)));
        item.put(ProjectionSchema.SOURCE_KEY, Av.s(source));
        item.put(ProjectionSchema.REVISION, Av.n(revision));
        item.put(ProjectionSchema.SOURCE_VERSION, Av.n(revision));
        item.put(ProjectionSchema.GAP_OPEN, AttributeValue.fromBool(false));
        item.put(Attr.SHARD_MAP_VERSION, Av.n(map.shardMapVersion()));
        ddb.putItem(b -> b.tableName(prefix + "Projection").item(item));
    }

    private static Map<String, AttributeValue> key(io.streamledger.model.keys.ItemKey k) {
        return Map.of(Attr.PK, Av.s(k.pk()), Attr.SK, Av.s(k.sk()));
    }

    private static AttributeDefinition attr(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    private record Run(int code, String out, String err) {}

    private Run run(String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(
                List.of(
                        "--endpoint",
                        local.endpoint().endpoint().toString(),
                        "--table-prefix",
                        prefix));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = ReshardCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(a.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }
}
