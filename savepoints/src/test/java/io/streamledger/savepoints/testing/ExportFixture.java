package io.streamledger.savepoints.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.AttributeValueJson;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.table.Attr;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a DynamoDB export directory in AWS's S3 layout (manifest-summary.json,
 * manifest-files.json, data/*.json.gz of {"Item":{...}} lines, MD5 of each compressed file) for
 * tests (CS09).
 */
public final class ExportFixture {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<List<Map<String, AttributeValue>>> files = new ArrayList<>();
    private String table = "Ledger";
    private Instant exportTime = Instant.parse("2026-11-30T10:00:00Z");

    public ExportFixture table(String name) {
        this.table = name;
        return this;
    }

    public ExportFixture exportTime(Instant t) {
        this.exportTime = t;
        return this;
    }

    /** Adds one data file holding {@code items}. */
    public ExportFixture file(List<Map<String, AttributeValue>> items) {
        files.add(new ArrayList<>(items));
        return this;
    }

    /** Writes the export under {@code root}/AWSDynamoDB/<id> and returns that directory. */
    public Path write(Path root) throws IOException {
        String id = "01764496800000-0000abcd";
        String prefix = "exports/AWSDynamoDB/" + id + "/";
        Path dir = root.resolve("AWSDynamoDB").resolve(id);
        Files.createDirectories(dir.resolve("data"));
        StringBuilder manifest = new StringBuilder();
        long total = 0;
        int n = 0;
        for (List<Map<String, AttributeValue>> items : files) {
            String name = String.format("file%03d.json.gz", n++);
            Path f = dir.resolve("data").resolve(name);
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
                for (Map<String, AttributeValue> item : items) {
                    ObjectNode line = MAPPER.createObjectNode();
                    line.set("Item", AttributeValueJson.writeItem(item));
                    out.write(MAPPER.writeValueAsBytes(line));
                    out.write('\n');
                }
            }
            ObjectNode m = MAPPER.createObjectNode();
            m.put("itemCount", items.size());
            m.put("md5Checksum", md5(Files.readAllBytes(f)));
            m.put("dataFileS3Key", prefix + "data/" + name);
            manifest.append(MAPPER.writeValueAsString(m)).append('\n');
            total += items.size();
        }
        Files.writeString(dir.resolve("manifest-files.json"), manifest, StandardCharsets.UTF_8);
        ObjectNode s = MAPPER.createObjectNode();
        s.put("version", "2020-06-30");
        s.put(
                "exportArn",
                "arn:aws:dynamodb:us-east-1:000000000000:table/" + table + "/export/" + id);
        s.put("tableArn", "arn:aws:dynamodb:us-east-1:000000000000:table/" + table);
        s.put("exportTime", exportTime.toString());
        s.put("itemCount", total);
        s.put("outputFormat", "DYNAMODB_JSON");
        s.put("exportType", "FULL_EXPORT");
        s.put("manifestFilesS3Key", prefix + "manifest-files.json");
        Files.writeString(dir.resolve("manifest-summary.json"), MAPPER.writeValueAsString(s));
        return dir;
    }

    /** An AP12 authority item (IDX11) as the Ledger table stores it. */
    public static Map<String, AttributeValue> authority(
            AuthorityKey key, long version, String posted, String reserved) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put(Attr.PK, new AttributeValue.S(key.pk()));
        m.put(Attr.SK, new AttributeValue.S(key.sk()));
        m.put("tenant", new AttributeValue.S(key.tenant()));
        m.put("accountId", new AttributeValue.S(key.account()));
        m.put("assetType", new AttributeValue.S(key.kind().name()));
        m.put("asset", new AttributeValue.S(key.asset()));
        m.put("posted", new AttributeValue.N(posted));
        m.put("reserved", new AttributeValue.N(reserved));
        m.put(
                "available",
                new AttributeValue.N(
                        new BigDecimal(posted).subtract(new BigDecimal(reserved)).toPlainString()));
        m.put(Attr.VERSION, new AttributeValue.N(Long.toString(version)));
        return m;
    }

    /** A posting row (IDX10): exported with the authorities, skipped by the bootstrap. */
    public static Map<String, AttributeValue> posting(String tenant, String account, String line) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put(
                Attr.PK,
                new AttributeValue.S(
                        "TEN#" + tenant + "#ACCT#" + account + "#MONTH#2026-11#BKT#00"));
        m.put(Attr.SK, new AttributeValue.S("POST#2026-11-30T10:00:00Z#txn1#" + line));
        m.put("amount", new AttributeValue.N("-12.50"));
        m.put("currency", new AttributeValue.S("USD"));
        return m;
    }

    public static String md5(byte[] bytes) {
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
