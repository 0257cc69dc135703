package io.streamledger.savepoints.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.AttributeValueJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * Reads a DynamoDB table export in the layout AWS writes to S3 and the local endpoint writes to a
 * folder ({@code manifest-summary.json}, {@code manifest-files.json}, {@code data/*.json.gz} of
 * {@code {"Item":{...}}} lines) and holds it to its manifest (CS09 step 3): every file present,
 * per-file and total item counts, and the MD5 of each compressed file when the manifest has one.
 * Any mismatch is an {@link ExportIntegrityException} naming the file and both figures.
 */
public final class ExportReader {

    public static final String SUMMARY = "manifest-summary.json";
    public static final String FILES = "manifest-files.json";
    public static final String FORMAT = "DYNAMODB_JSON";

    /** A line longer than this is not an item (DynamoDB items are at most 400 KB). */
    static final int MAX_LINE_CHARS = 2 * 1024 * 1024;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ExportReader() {}

    /**
     * Parses both manifests and checks what can be checked without decompressing: file presence,
     * sum of per-file counts equals the total, MD5 per file.
     *
     * @throws ExportIntegrityException on any mismatch or malformed manifest
     */
    public static ExportManifest open(Path directory) {
        Path dir = directory.toAbsolutePath().normalize();
        JsonNode summary = readJson(dir.resolve(SUMMARY));
        String format = text(summary, "outputFormat", FORMAT);
        if (!FORMAT.equals(format)) {
            throw new ExportIntegrityException(
                    SUMMARY
                            + ": outputFormat "
                            + format
                            + " is not supported (only "
                            + FORMAT
                            + ")");
        }
        long total = requiredLong(summary, "itemCount", SUMMARY);
        Instant exportTime = null;
        String et = text(summary, "exportTime", null);
        if (et != null) {
            try {
                exportTime = Instant.parse(et);
            } catch (DateTimeParseException e) {
                throw new ExportIntegrityException(
                        SUMMARY + ": exportTime '" + et + "' is not ISO-8601");
            }
        }
        List<ExportDataFile> files = readFileList(dir);
        long sum = 0;
        for (ExportDataFile f : files) {
            sum += f.itemCount();
        }
        if (sum != total) {
            throw new ExportIntegrityException(
                    "item count mismatch: "
                            + SUMMARY
                            + " says itemCount="
                            + total
                            + " but the "
                            + files.size()
                            + " files in "
                            + FILES
                            + " add up to "
                            + sum);
        }
        for (ExportDataFile f : files) {
            if (!Files.isRegularFile(f.file())) {
                throw new ExportIntegrityException(
                        "data file missing: " + f.s3Key() + " (expected at " + f.path() + ")");
            }
            if (f.md5Base64() != null) {
                String actual = md5Base64(f.file());
                if (!actual.equals(f.md5Base64())) {
                    throw new ExportIntegrityException(
                            "MD5 mismatch for "
                                    + f.s3Key()
                                    + ": manifest md5Checksum="
                                    + f.md5Base64()
                                    + ", file has "
                                    + actual);
                }
            }
        }
        Map<String, String> positions = new LinkedHashMap<>();
        JsonNode pos = summary.path("localStreamPosition").path("lastSequenceNumberByShard");
        for (Iterator<Map.Entry<String, JsonNode>> it = pos.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            positions.put(e.getKey(), e.getValue().asText());
        }
        return new ExportManifest(
                dir.toString(),
                text(summary, "exportArn", ""),
                text(summary, "tableArn", ""),
                exportTime,
                total,
                files,
                positions);
    }

    /**
     * Streams the items of one data file and checks its line count against the manifest.
     *
     * @return the number of items read (always {@link ExportDataFile#itemCount()})
     * @throws ExportIntegrityException for a count mismatch, a malformed line or unreadable gzip
     */
    public static long readFile(ExportDataFile f, Consumer<Map<String, AttributeValue>> items) {
        long n = 0;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(f.file()), 1 << 16);
                BufferedReader r =
                        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                n++;
                items.accept(parseLine(f, n, line));
            }
        } catch (IOException e) {
            throw new ExportIntegrityException(
                    "cannot read data file " + f.s3Key() + " after " + n + " items: " + e, e);
        }
        if (n != f.itemCount()) {
            throw new ExportIntegrityException(
                    "item count mismatch in "
                            + f.s3Key()
                            + ": "
                            + FILES
                            + " says itemCount="
                            + f.itemCount()
                            + " but the file holds "
                            + n
                            + " items");
        }
        return n;
    }

    /** Reads every file (counts and lines checked); returns the total, equal to the manifest's. */
    public static long verifyAll(ExportManifest m, Consumer<Map<String, AttributeValue>> items) {
        long total = 0;
        for (ExportDataFile f : m.files()) {
            total += readFile(f, items);
        }
        return total;
    }

    static Map<String, AttributeValue> parseLine(ExportDataFile f, long lineNo, String line) {
        if (line.length() > MAX_LINE_CHARS) {
            throw new ExportIntegrityException(
                    f.s3Key() + " line " + lineNo + ": " + line.length() + " chars is not an item");
        }
        try {
            JsonNode node = MAPPER.readTree(line);
            JsonNode item = node == null ? null : node.get("Item");
            if (item == null || !item.isObject()) {
                throw new ExportIntegrityException(
                        f.s3Key() + " line " + lineNo + ": no \"Item\" object");
            }
            return AttributeValueJson.readItem(item, "Item");
        } catch (ExportIntegrityException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new ExportIntegrityException(
                    f.s3Key() + " line " + lineNo + ": malformed item: " + e.getMessage(), e);
        }
    }

    private static List<ExportDataFile> readFileList(Path dir) {
        Path p = dir.resolve(FILES);
        List<String> lines;
        try {
            lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ExportIntegrityException("cannot read " + p + ": " + e, e);
        }
        List<ExportDataFile> out = new ArrayList<>();
        int lineNo = 0;
        for (String line : lines) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            JsonNode n;
            try {
                n = MAPPER.readTree(line);
            } catch (IOException e) {
                throw new ExportIntegrityException(FILES + " line " + lineNo + ": not JSON", e);
            }
            String key = text(n, "dataFileS3Key", null);
            if (key == null) {
                throw new ExportIntegrityException(
                        FILES + " line " + lineNo + ": no dataFileS3Key");
            }
            long count = requiredLong(n, "itemCount", FILES + " line " + lineNo);
            out.add(
                    new ExportDataFile(
                            key, count, text(n, "md5Checksum", null), localPath(dir, key)));
        }
        if (out.isEmpty()) {
            throw new ExportIntegrityException(FILES + " lists no data files");
        }
        return out;
    }

    /** {@code <prefix>/AWSDynamoDB/<id>/data/<name>} → {@code <dir>/data/<name>}. */
    static String localPath(Path dir, String s3Key) {
        int i = s3Key.lastIndexOf("data/");
        String rel = i < 0 ? s3Key : s3Key.substring(i);
        Path resolved = dir.resolve(rel).normalize();
        if (!resolved.startsWith(dir) || rel.contains("..")) {
            throw new ExportIntegrityException(
                    "dataFileS3Key " + s3Key + " points outside the export directory");
        }
        return resolved.toString();
    }

    static String md5Base64(Path file) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            try (InputStream in = new DigestInputStream(Files.newInputStream(file), md5)) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            return Base64.getEncoder().encodeToString(md5.digest());
        } catch (IOException e) {
            throw new ExportIntegrityException("cannot read data file " + file + ": " + e, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is part of every JRE", e);
        }
    }

    private static JsonNode readJson(Path p) {
        if (!Files.isRegularFile(p)) {
            throw new ExportIntegrityException("not an export directory: " + p + " is missing");
        }
        try {
            return MAPPER.readTree(p.toFile());
        } catch (IOException e) {
            throw new ExportIntegrityException("cannot parse " + p + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode n, String field, String fallback) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? fallback : v.asText();
    }

    private static long requiredLong(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null || !v.canConvertToLong() || v.asLong() < 0) {
            throw new ExportIntegrityException(
                    where + ": " + field + " is missing or not a non-negative integer: " + v);
        }
        return v.asLong();
    }
}
