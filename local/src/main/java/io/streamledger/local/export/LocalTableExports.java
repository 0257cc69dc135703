package io.streamledger.local.export;

import static io.streamledger.local.spi.RequestFields.required;
import static io.streamledger.local.spi.RequestFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.ApiExtension;
import io.streamledger.local.spi.TableCatalog;
import io.streamledger.local.streams.LocalDynamoDbStreams;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import javax.annotation.Nullable;

/**
 * ExportTableToPointInTime / DescribeExport / ListExports for the local endpoint: takes a
 * consistent snapshot through {@link TableCatalog#snapshot}, writes DynamoDB's export layout under
 * {@code <exportRoot>/<S3Bucket>/<S3Prefix>/AWSDynamoDB/<exportId>/}, and records in
 * manifest-summary.json the stream position the snapshot corresponds to (local extension field
 * {@code localStreamPosition}) so a rebuild can catch up from Streams exactly after it (seed CS09).
 */
public final class LocalTableExports implements ApiExtension {
    public static final String PREFIX = "DynamoDB_20120810.";
    public static final String EXPORT = PREFIX + "ExportTableToPointInTime";
    public static final String DESCRIBE = PREFIX + "DescribeExport";
    public static final String LIST = PREFIX + "ListExports";

    public static final String MANIFEST_VERSION = "2020-06-30";
    public static final String FORMAT = "DYNAMODB_JSON";
    public static final String FULL_EXPORT = "FULL_EXPORT";

    /** Name of the local extension field in manifest-summary.json. */
    public static final String STREAM_POSITION_FIELD = "localStreamPosition";

    private static final String REGION = "us-east-1";
    private static final String ACCOUNT = "000000000000";

    /** An ExportTime older than this is a past point in time, which the local endpoint lacks. */
    private static final Duration NOW_TOLERANCE = Duration.ofMinutes(1);

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Path exportRoot;
    private final Clock clock;
    private final int maxItemsPerFile;
    private final Map<String, ObjectNode> exportsByArn = new LinkedHashMap<>();
    private final Map<String, ObjectNode> requestsByToken = new LinkedHashMap<>();
    private volatile @Nullable TableCatalog catalog;
    private volatile @Nullable LocalDynamoDbStreams streams;

    public LocalTableExports(Path exportRoot, Clock clock, int maxItemsPerFile) {
        if (maxItemsPerFile < 1) {
            throw new IllegalArgumentException("maxItemsPerFile must be >= 1");
        }
        this.exportRoot = exportRoot.toAbsolutePath();
        this.clock = clock;
        this.maxItemsPerFile = maxItemsPerFile;
    }

    public LocalTableExports(Path exportRoot) {
        this(exportRoot, Clock.systemUTC(), 100_000);
    }

    /** The engine's catalog, which provides the consistent snapshot. */
    public void attach(TableCatalog catalog) {
        this.catalog = catalog;
    }

    /** Optional: the Streams service whose position each export records. */
    public void attach(LocalDynamoDbStreams streams) {
        this.streams = streams;
    }

    public Path exportRoot() {
        return exportRoot;
    }

    /** Directory of one export: {@code <root>/<bucket>/<prefix>/AWSDynamoDB/<exportId>}. */
    public Path exportDirectory(String bucket, @Nullable String prefix, String exportId) {
        Path dir = exportRoot.resolve(bucket);
        if (prefix != null && !prefix.isEmpty()) {
            dir = dir.resolve(prefix);
        }
        return dir.resolve("AWSDynamoDB").resolve(exportId);
    }

    @Override
    public Set<String> targets() {
        return Set.of(EXPORT, DESCRIBE, LIST);
    }

    @Override
    public JsonNode handle(String target, ObjectNode request) {
        switch (target) {
            case EXPORT:
                return export(request);
            case DESCRIBE:
                return describe(request);
            case LIST:
                return list(request);
            default:
                throw new ApiException(
                        "UnknownOperationException", 400, "Unknown operation " + target);
        }
    }

    // ---- ExportTableToPointInTime ----------------------------------------------------------

    private ObjectNode export(ObjectNode request) {
        String tableArn = required(request, "TableArn");
        String bucket = required(request, "S3Bucket");
        String prefix = text(request, "S3Prefix");
        String format = Optional.ofNullable(text(request, "ExportFormat")).orElse(FORMAT);
        String type = Optional.ofNullable(text(request, "ExportType")).orElse(FULL_EXPORT);
        if (!FORMAT.equals(format)) {
            throw ApiException.validation(
                    "ExportFormat " + format + " is not supported locally; use DYNAMODB_JSON");
        }
        if (!FULL_EXPORT.equals(type)) {
            throw ApiException.validation(
                    "ExportType " + type + " is not supported locally; use FULL_EXPORT");
        }
        if (bucket.contains("/")
                || bucket.contains("..")
                || (prefix != null && prefix.contains(".."))) {
            throw ApiException.validation(
                    "S3Bucket/S3Prefix must not contain '..' or a '/' in the bucket");
        }
        Instant now = clock.instant();
        JsonNode exportTime = request.get("ExportTime");
        if (exportTime != null && !exportTime.isNull()) {
            Instant at = Instant.ofEpochMilli((long) (exportTime.asDouble() * 1000));
            if (at.isBefore(now.minus(NOW_TOLERANCE)) || at.isAfter(now.plus(NOW_TOLERANCE))) {
                throw ApiException.validation(
                        "The local endpoint exports the current table state only; ExportTime "
                                + at
                                + " is not now ("
                                + now
                                + ")");
            }
        }
        String token = text(request, "ClientToken");
        synchronized (this) {
            if (token != null) {
                ObjectNode previous = requestsByToken.get(token);
                if (previous != null) {
                    if (!sameParameters(previous, request)) {
                        throw new ApiException(
                                "IdempotentParameterMismatchException",
                                400,
                                "ClientToken " + token + " was used with different parameters");
                    }
                    ObjectNode existing = exportsByArn.get(previous.get("__exportArn").asText());
                    return wrap(existing);
                }
            }
        }
        String table = tableOf(tableArn);
        TableCatalog c = catalog;
        if (c == null) {
            throw new ApiException(
                    "InternalServerError", 500, "Export has no table catalog attached");
        }
        if (c.describe(table).isEmpty()) {
            throw new ApiException("TableNotFoundException", 400, "Table not found: " + tableArn);
        }
        String exportId =
                String.format(
                        "%014d-%08x",
                        now.toEpochMilli(), UUID.randomUUID().getMostSignificantBits() >>> 32);
        String exportArn = tableArn + "/export/" + exportId;
        ObjectNode d = JSON.objectNode();
        d.put("ExportArn", exportArn);
        d.put("ExportStatus", "IN_PROGRESS");
        d.put("StartTime", seconds(now));
        d.put("ExportTime", seconds(now));
        d.put("TableArn", tableArn);
        d.put("TableId", tableIdOf(table));
        d.put("S3Bucket", bucket);
        if (prefix != null) {
            d.put("S3Prefix", prefix);
        }
        d.put("S3SseAlgorithm", "AES256");
        d.put("ExportFormat", FORMAT);
        d.put("ExportType", FULL_EXPORT);
        if (token != null) {
            d.put("ClientToken", token);
        }
        ObjectNode response = wrap(d.deepCopy()); // AWS answers IN_PROGRESS; poll DescribeExport
        writeExport(d, c, table, bucket, prefix, exportId, now);
        synchronized (this) {
            exportsByArn.put(exportArn, d);
            if (token != null) {
                ObjectNode remembered = request.deepCopy();
                remembered.put("__exportArn", exportArn);
                requestsByToken.put(token, remembered);
            }
        }
        return response;
    }

    /** Runs the snapshot and writes every file; on an I/O error the export ends FAILED. */
    private void writeExport(
            ObjectNode d,
            TableCatalog c,
            String table,
            String bucket,
            @Nullable String prefix,
            String exportId,
            Instant start) {
        String keyPrefix =
                (prefix == null || prefix.isEmpty() ? "" : stripSlashes(prefix) + "/")
                        + "AWSDynamoDB/"
                        + exportId
                        + "/";
        Path dir = exportDirectory(bucket, prefix == null ? null : stripSlashes(prefix), exportId);
        AtomicReference<LocalDynamoDbStreams.StreamPosition> position = new AtomicReference<>();
        try {
            Files.createDirectories(dir.resolve("data"));
            Files.write(dir.resolve("_started"), new byte[0]);
            long items;
            List<ExportWriter.DataFile> files;
            long bytes;
            try (ExportWriter writer =
                    new ExportWriter(dir.resolve("data"), keyPrefix + "data/", maxItemsPerFile)) {
                LocalDynamoDbStreams s = streams;
                items =
                        c.snapshot(
                                table,
                                () -> {
                                    if (s != null) {
                                        s.position(table).ifPresent(position::set);
                                    }
                                },
                                writer::write);
                files = writer.finish();
                bytes = writer.uncompressedBytes();
            }
            StringBuilder manifestFiles = new StringBuilder();
            for (ExportWriter.DataFile f : files) {
                ObjectNode line = JSON.objectNode();
                line.put("itemCount", f.itemCount());
                line.put("md5Checksum", f.md5Base64());
                line.put("etag", f.etag());
                line.put("dataFileS3Key", f.s3Key());
                manifestFiles.append(MAPPER.writeValueAsString(line)).append('\n');
            }
            writeWithChecksum(dir, "manifest-files", manifestFiles.toString());
            Instant end = clock.instant();
            ObjectNode summary = JSON.objectNode();
            summary.put("version", MANIFEST_VERSION);
            summary.put("exportArn", d.get("ExportArn").asText());
            summary.put("startTime", start.toString());
            summary.put("endTime", end.toString());
            summary.put("tableArn", d.get("TableArn").asText());
            summary.put("tableId", d.get("TableId").asText());
            summary.put("exportTime", start.toString());
            summary.put("s3Bucket", bucket);
            if (prefix == null) {
                summary.putNull("s3Prefix");
            } else {
                summary.put("s3Prefix", prefix);
            }
            summary.put("s3SseAlgorithm", "AES256");
            summary.putNull("s3SseKmsKeyId");
            summary.put("manifestFilesS3Key", keyPrefix + "manifest-files.json");
            summary.put("billedSizeBytes", bytes);
            summary.put("itemCount", items);
            summary.put("outputFormat", FORMAT);
            summary.put("exportType", FULL_EXPORT);
            ObjectNode pos = summary.putObject(STREAM_POSITION_FIELD);
            LocalDynamoDbStreams.StreamPosition p = position.get();
            if (p == null) {
                pos.putNull("streamArn");
                pos.putObject("lastSequenceNumberByShard");
            } else {
                pos.put("streamArn", p.streamArn());
                ObjectNode shards = pos.putObject("lastSequenceNumberByShard");
                p.lastSequenceByShard().forEach(shards::put);
            }
            writeWithChecksum(
                    dir,
                    "manifest-summary",
                    MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
            d.put("ExportStatus", "COMPLETED");
            d.put("EndTime", seconds(end));
            d.put("ExportManifest", keyPrefix + "manifest-summary.json");
            d.put("ItemCount", items);
            d.put("BilledSizeBytes", bytes);
        } catch (IOException | RuntimeException e) {
            d.put("ExportStatus", "FAILED");
            d.put("EndTime", seconds(clock.instant()));
            d.put("FailureCode", e instanceof IOException ? "IOError" : "InternalError");
            d.put("FailureMessage", String.valueOf(e.getMessage()));
        }
    }

    private static void writeWithChecksum(Path dir, String name, String content)
            throws IOException {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve(name + ".json"), bytes);
        try {
            byte[] md5 = MessageDigest.getInstance("MD5").digest(bytes);
            Files.writeString(dir.resolve(name + ".checksum"), HexFormat.of().formatHex(md5));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is part of every JRE", e);
        }
    }

    // ---- DescribeExport / ListExports -------------------------------------------------------

    private synchronized ObjectNode describe(ObjectNode request) {
        String arn = required(request, "ExportArn");
        ObjectNode d = exportsByArn.get(arn);
        if (d == null) {
            throw new ApiException("ExportNotFoundException", 400, "Export not found: " + arn);
        }
        return wrap(d.deepCopy());
    }

    private synchronized ObjectNode list(ObjectNode request) {
        String tableArn = text(request, "TableArn");
        JsonNode max = request.get("MaxResults");
        int limit = max == null || max.isNull() ? 25 : max.asInt();
        if (limit < 1 || limit > 25) {
            throw ApiException.validation("MaxResults must be between 1 and 25");
        }
        String next = text(request, "NextToken");
        List<ObjectNode> matching = new ArrayList<>();
        for (ObjectNode d : exportsByArn.values()) {
            if (tableArn == null || tableArn.equals(d.get("TableArn").asText())) {
                matching.add(d);
            }
        }
        int start = 0;
        if (next != null) {
            try {
                start = Integer.parseInt(next);
            } catch (NumberFormatException e) {
                throw ApiException.validation("Invalid NextToken");
            }
        }
        ObjectNode out = JSON.objectNode();
        ArrayNode summaries = out.putArray("ExportSummaries");
        int end = Math.min(matching.size(), start + limit);
        for (int i = start; i < end; i++) {
            ObjectNode d = matching.get(i);
            summaries
                    .addObject()
                    .put("ExportArn", d.get("ExportArn").asText())
                    .put("ExportStatus", d.get("ExportStatus").asText())
                    .put("ExportType", FULL_EXPORT);
        }
        if (end < matching.size()) {
            out.put("NextToken", Integer.toString(end));
        }
        return out;
    }

    // ---- helpers ---------------------------------------------------------------------------

    private static ObjectNode wrap(ObjectNode description) {
        ObjectNode out = JSON.objectNode();
        out.set("ExportDescription", description);
        return out;
    }

    private static boolean sameParameters(ObjectNode previous, ObjectNode request) {
        for (String f : List.of("TableArn", "S3Bucket", "S3Prefix", "ExportFormat", "ExportType")) {
            if (!java.util.Objects.equals(text(previous, f), text(request, f))) {
                return false;
            }
        }
        return true;
    }

    private static double seconds(Instant t) {
        return t.toEpochMilli() / 1000.0; // AWS JSON timestamps are epoch seconds with fraction
    }

    private static String tableOf(String tableArn) {
        int i = tableArn.indexOf(":table/");
        if (!tableArn.startsWith("arn:") || i < 0 || tableArn.length() == i + 7) {
            throw ApiException.validation("Invalid TableArn: " + tableArn);
        }
        String rest = tableArn.substring(i + 7);
        return rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
    }

    private static String tableIdOf(String table) {
        return UUID.nameUUIDFromBytes(table.getBytes(StandardCharsets.UTF_8)).toString();
    }

    public static String tableArn(String table) {
        return "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/" + table;
    }

    private static String stripSlashes(String prefix) {
        String p = prefix;
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
