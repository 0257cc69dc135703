package io.streamledger.local.export;

import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.it.Clients;
import io.streamledger.local.it.Errors;
import io.streamledger.local.it.Tables;
import io.streamledger.local.streams.StreamFeatures;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * ExportTableToPointInTime through the SDK v2 client: files in DynamoDB's export layout, counts
 * matching the manifest, a later write absent, and the recorded stream position letting a rebuild
 * catch up with exactly the writes after the snapshot (seed CS09).
 */
class TableExportITCase {
    private static final Path ROOT;

    static {
        try {
            ROOT = Files.createTempDirectory("export-it");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @RegisterExtension
    static final LocalDynamoDbExtension LOCAL =
            new LocalDynamoDbExtension(
                    b -> b.streamFeatures(StreamFeatures.defaults().withExportRoot(ROOT)));

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @org.junit.jupiter.api.AfterAll
    static void deleteExports() throws java.io.IOException {
        try (var paths = Files.walk(ROOT)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void exportIsAConsistentSnapshotWithItsStreamPosition() throws Exception {
        try (DynamoDbClient ddb = Clients.dynamo(LOCAL.endpoint().endpoint());
                DynamoDbStreamsClient streams =
                        DynamoDbStreamsClient.builder()
                                .endpointOverride(LOCAL.endpoint().endpoint())
                                .region(Region.US_EAST_1)
                                .credentialsProvider(
                                        StaticCredentialsProvider.create(
                                                AwsBasicCredentials.create("AKIDLOCAL", "secret")))
                                .build()) {
            String table = Tables.pkSk(ddb, "export");
            ddb.updateTable(
                    b ->
                            b.tableName(table)
                                    .streamSpecification(
                                            sp ->
                                                    sp.streamEnabled(true)
                                                            .streamViewType(
                                                                    StreamViewType.NEW_IMAGE)));
            for (int i = 0; i < 25; i++) {
                int k = i;
                ddb.putItem(
                        b ->
                                b.tableName(table)
                                        .item(
                                                Map.of(
                                                        "PK",
                                                        s("acct-" + k),
                                                        "SK",
                                                        s("BAL"),
                                                        "minor",
                                                        n(Integer.toString(k * 100)))));
            }
            String tableArn = ddb.describeTable(b -> b.tableName(table)).table().tableArn();
            ExportDescription started =
                    ddb.exportTableToPointInTime(
                                    b ->
                                            b.tableArn(tableArn)
                                                    .s3Bucket("ledger-exports")
                                                    .s3Prefix("rebuild/v1")
                                                    .exportFormat(ExportFormat.DYNAMODB_JSON))
                            .exportDescription();
            ddb.putItem(b -> b.tableName(table).item(Map.of("PK", s("acct-late"), "SK", s("BAL"))));

            ExportDescription done =
                    ddb.describeExport(b -> b.exportArn(started.exportArn())).exportDescription();
            assertThat(done.exportStatus()).isEqualTo(ExportStatus.COMPLETED);
            assertThat(done.itemCount()).isEqualTo(25L);
            assertThat(done.exportFormat()).isEqualTo(ExportFormat.DYNAMODB_JSON);
            assertThat(ddb.listExports(b -> b.tableArn(tableArn)).exportSummaries())
                    .extracting(x -> x.exportArn())
                    .containsExactly(started.exportArn());

            Path bucket = ROOT.resolve("ledger-exports");
            Path summaryFile = bucket.resolve(done.exportManifest());
            assertThat(summaryFile).exists().hasFileName("manifest-summary.json");
            JsonNode summary = MAPPER.readTree(summaryFile.toFile());
            assertThat(summary.get("itemCount").asLong()).isEqualTo(25);
            assertThat(summary.get("outputFormat").asText()).isEqualTo("DYNAMODB_JSON");
            assertThat(summary.get("exportArn").asText()).isEqualTo(started.exportArn());
            assertThat(summary.get("tableArn").asText()).isEqualTo(tableArn);

            Set<String> exported = new HashSet<>();
            for (String line :
                    Files.readAllLines(
                            bucket.resolve(summary.get("manifestFilesS3Key").asText()))) {
                JsonNode f = MAPPER.readTree(line);
                long count = 0;
                try (BufferedReader r =
                        new BufferedReader(
                                new InputStreamReader(
                                        new GZIPInputStream(
                                                Files.newInputStream(
                                                        bucket.resolve(
                                                                f.get("dataFileS3Key").asText()))),
                                        StandardCharsets.UTF_8))) {
                    for (String l = r.readLine(); l != null; l = r.readLine()) {
                        JsonNode item = MAPPER.readTree(l).get("Item");
                        exported.add(item.get("PK").get("S").asText());
                        assertThat(item.get("minor").get("N").asText()).isNotEmpty();
                        count++;
                    }
                }
                assertThat(f.get("itemCount").asLong()).isEqualTo(count);
            }
            assertThat(exported).hasSize(25).doesNotContain("acct-late");

            // catch up from the recorded position: exactly the write after the snapshot
            JsonNode position = summary.get("localStreamPosition");
            String streamArn = position.get("streamArn").asText();
            Set<String> caughtUp = new HashSet<>();
            for (var shard :
                    streams.describeStream(b -> b.streamArn(streamArn))
                            .streamDescription()
                            .shards()) {
                JsonNode last = position.get("lastSequenceNumberByShard").get(shard.shardId());
                String it =
                        last == null
                                ? streams.getShardIterator(
                                                b ->
                                                        b.streamArn(streamArn)
                                                                .shardId(shard.shardId())
                                                                .shardIteratorType(
                                                                        ShardIteratorType
                                                                                .TRIM_HORIZON))
                                        .shardIterator()
                                : streams.getShardIterator(
                                                b ->
                                                        b.streamArn(streamArn)
                                                                .shardId(shard.shardId())
                                                                .shardIteratorType(
                                                                        ShardIteratorType
                                                                                .AFTER_SEQUENCE_NUMBER)
                                                                .sequenceNumber(last.asText()))
                                        .shardIterator();
                for (Record r : streams.getRecords(b -> b.shardIterator(it)).records()) {
                    caughtUp.add(r.dynamodb().keys().get("PK").s());
                }
            }
            assertThat(caughtUp).containsExactly("acct-late");

            Errors.assertError(
                    () -> ddb.describeExport(b -> b.exportArn(tableArn + "/export/none")),
                    "ExportNotFoundException");
            Errors.assertError(
                    () ->
                            ddb.exportTableToPointInTime(
                                    b -> b.tableArn(tableArn + "-missing").s3Bucket("b")),
                    "TableNotFoundException");
        }
    }
}
