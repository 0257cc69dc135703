package io.streamledger.local.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.streams.LocalDynamoDbStreams;
import io.streamledger.local.testing.Changes;
import io.streamledger.local.testing.FakeTableCatalog;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Export layout, counts, checksums and the recorded stream position (seed CS09). */
class LocalTableExportsTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir Path root;

    @Test
    void writesDynamoDbExportLayoutWithStreamPosition() throws Exception {
        FakeTableCatalog catalog = new FakeTableCatalog();
        catalog.createTable("Orders");
        LocalDynamoDbStreams streams = new LocalDynamoDbStreams();
        streams.attach(catalog);
        String streamArn = streams.enable("Orders", "NEW_IMAGE").arn();
        for (int i = 0; i < 7; i++) {
            catalog.put("Orders", Changes.item("o" + i, 1));
            streams.onCommit(List.of(Changes.insert("Orders", "o" + i, Instant.now())));
        }
        LocalTableExports exports = new LocalTableExports(root, Clock.systemUTC(), 3);
        exports.attach(catalog);
        exports.attach(streams);

        JsonNode started =
                exports.handle(
                                LocalTableExports.EXPORT,
                                JSON.objectNode()
                                        .put("TableArn", LocalTableExports.tableArn("Orders"))
                                        .put("S3Bucket", "bucket")
                                        .put("S3Prefix", "exports/orders"))
                        .get("ExportDescription");
        assertThat(started.get("ExportStatus").asText()).isEqualTo("IN_PROGRESS");
        String exportArn = started.get("ExportArn").asText();
        assertThat(exportArn)
                .matches(
                        "arn:aws:dynamodb:us-east-1:000000000000:table/Orders/export/\\d{14}-[0-9a-f]{8}");
        // a write after the export is not in it
        catalog.put("Orders", Changes.item("late", 1));

        JsonNode done =
                exports.handle(
                                LocalTableExports.DESCRIBE,
                                JSON.objectNode().put("ExportArn", exportArn))
                        .get("ExportDescription");
        assertThat(done.get("ExportStatus").asText()).isEqualTo("COMPLETED");
        assertThat(done.get("ItemCount").asLong()).isEqualTo(7);
        String exportId = exportArn.substring(exportArn.lastIndexOf('/') + 1);
        Path dir = root.resolve("bucket/exports/orders/AWSDynamoDB").resolve(exportId);
        assertThat(done.get("ExportManifest").asText())
                .isEqualTo("exports/orders/AWSDynamoDB/" + exportId + "/manifest-summary.json");
        assertThat(dir.resolve("_started")).exists();
        assertThat(dir.resolve("manifest-summary.checksum")).exists();

        JsonNode summary = MAPPER.readTree(dir.resolve("manifest-summary.json").toFile());
        assertThat(summary.get("version").asText()).isEqualTo("2020-06-30");
        assertThat(summary.get("exportArn").asText()).isEqualTo(exportArn);
        assertThat(summary.get("itemCount").asLong()).isEqualTo(7);
        assertThat(summary.get("outputFormat").asText()).isEqualTo("DYNAMODB_JSON");
        assertThat(summary.get("tableArn").asText())
                .isEqualTo(LocalTableExports.tableArn("Orders"));
        assertThat(summary.get("manifestFilesS3Key").asText())
                .isEqualTo("exports/orders/AWSDynamoDB/" + exportId + "/manifest-files.json");
        JsonNode position = summary.get(LocalTableExports.STREAM_POSITION_FIELD);
        assertThat(position.get("streamArn").asText()).isEqualTo(streamArn);
        assertThat(position.get("lastSequenceNumberByShard").size()).isPositive();
        assertThat(
                        MAPPER.convertValue(
                                position.get("lastSequenceNumberByShard"), java.util.Map.class))
                .isEqualTo(streams.position("Orders").orElseThrow().lastSequenceByShard());

        List<String> manifestLines = Files.readAllLines(dir.resolve("manifest-files.json"));
        assertThat(manifestLines).hasSize(3); // 7 items, 3 per file
        long total = 0;
        List<String> keys = new ArrayList<>();
        for (String line : manifestLines) {
            JsonNode f = MAPPER.readTree(line);
            String s3Key = f.get("dataFileS3Key").asText();
            assertThat(s3Key)
                    .startsWith("exports/orders/AWSDynamoDB/" + exportId + "/data/")
                    .endsWith(".json.gz");
            Path file = root.resolve("bucket").resolve(s3Key);
            byte[] gz = Files.readAllBytes(file);
            assertThat(f.get("md5Checksum").asText())
                    .isEqualTo(
                            Base64.getEncoder()
                                    .encodeToString(MessageDigest.getInstance("MD5").digest(gz)));
            long n = 0;
            try (BufferedReader r =
                    new BufferedReader(
                            new InputStreamReader(
                                    new GZIPInputStream(Files.newInputStream(file)),
                                    StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    keys.add(MAPPER.readTree(l).get("Item").get("PK").get("S").asText());
                    n++;
                }
            }
            assertThat(f.get("itemCount").asLong()).isEqualTo(n);
            total += n;
        }
        assertThat(total).isEqualTo(7);
        assertThat(keys).doesNotContain("late").contains("o0", "o6");

        JsonNode listed = exports.handle(LocalTableExports.LIST, JSON.objectNode());
        assertThat(listed.get("ExportSummaries").get(0).get("ExportArn").asText())
                .isEqualTo(exportArn);
    }

    @Test
    void rejectsUnknownTablesUnsupportedFormatsAndReusedTokens() {
        FakeTableCatalog catalog = new FakeTableCatalog();
        catalog.createTable("Orders");
        LocalTableExports exports = new LocalTableExports(root);
        exports.attach(catalog);
        ObjectNode base =
                JSON.objectNode()
                        .put("TableArn", LocalTableExports.tableArn("Orders"))
                        .put("S3Bucket", "b");
        assertThatThrownBy(
                        () ->
                                exports.handle(
                                        LocalTableExports.EXPORT,
                                        base.deepCopy()
                                                .put(
                                                        "TableArn",
                                                        LocalTableExports.tableArn("Nope"))))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("TableNotFoundException");
        assertThatThrownBy(
                        () ->
                                exports.handle(
                                        LocalTableExports.EXPORT,
                                        base.deepCopy().put("ExportFormat", "ION")))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("ValidationException");
        assertThatThrownBy(
                        () ->
                                exports.handle(
                                        LocalTableExports.DESCRIBE,
                                        JSON.objectNode().put("ExportArn", "arn:x")))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("ExportNotFoundException");
        JsonNode first =
                exports.handle(LocalTableExports.EXPORT, base.deepCopy().put("ClientToken", "t1"));
        JsonNode again =
                exports.handle(LocalTableExports.EXPORT, base.deepCopy().put("ClientToken", "t1"));
        assertThat(again.get("ExportDescription").get("ExportArn"))
                .isEqualTo(first.get("ExportDescription").get("ExportArn"));
        assertThatThrownBy(
                        () ->
                                exports.handle(
                                        LocalTableExports.EXPORT,
                                        base.deepCopy()
                                                .put("ClientToken", "t1")
                                                .put("S3Bucket", "other")))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("IdempotentParameterMismatchException");
        // an empty table still produces one (empty) data file
        JsonNode d =
                exports.handle(
                        LocalTableExports.DESCRIBE,
                        JSON.objectNode()
                                .put(
                                        "ExportArn",
                                        first.get("ExportDescription").get("ExportArn").asText()));
        assertThat(d.get("ExportDescription").get("ItemCount").asLong()).isZero();
    }
}
