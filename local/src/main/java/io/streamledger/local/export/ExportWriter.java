package io.streamledger.local.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;

/**
 * Writes the {@code data/*.json.gz} files of one export ({@code {"Item":{...}}} lines, a new file
 * every {@code maxItemsPerFile}) and remembers each file's manifest line (seed CS09).
 */
final class ExportWriter implements AutoCloseable {
    /** One line of manifest-files.json. */
    record DataFile(String s3Key, long itemCount, String md5Base64, String etag) {}

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path dataDir;
    private final String dataKeyPrefix;
    private final int maxItemsPerFile;
    private final List<DataFile> files = new ArrayList<>();
    private OutputStream out;
    private MessageDigest digest;
    private String currentName;
    private long currentCount;
    private long totalBytes;

    ExportWriter(Path dataDir, String dataKeyPrefix, int maxItemsPerFile) {
        this.dataDir = dataDir;
        this.dataKeyPrefix = dataKeyPrefix;
        this.maxItemsPerFile = maxItemsPerFile;
    }

    void write(ObjectNode item) {
        try {
            if (out == null || currentCount >= maxItemsPerFile) {
                finishFile();
                openFile();
            }
            ObjectNode line = JsonNodeFactory.instance.objectNode();
            line.set("Item", item);
            byte[] bytes = MAPPER.writeValueAsBytes(line);
            out.write(bytes);
            out.write('\n');
            totalBytes += bytes.length + 1;
            currentCount++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the last file; an empty table still gets one (empty) data file, as on AWS. */
    List<DataFile> finish() throws IOException {
        if (out == null) {
            openFile();
        }
        finishFile();
        return files;
    }

    long uncompressedBytes() {
        return totalBytes;
    }

    private void openFile() throws IOException {
        try {
            digest = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is part of every JRE", e);
        }
        currentName = UUID.randomUUID().toString().replace("-", "") + ".json.gz";
        out =
                new GZIPOutputStream(
                        new DigestOutputStream(
                                Files.newOutputStream(dataDir.resolve(currentName)), digest));
        currentCount = 0;
    }

    private void finishFile() throws IOException {
        if (out == null) {
            return;
        }
        out.close();
        byte[] md5 = digest.digest();
        files.add(
                new DataFile(
                        dataKeyPrefix + currentName,
                        currentCount,
                        Base64.getEncoder().encodeToString(md5),
                        HexFormat.of().formatHex(md5)));
        out = null;
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            out.close();
        }
    }
}
