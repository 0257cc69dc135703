package io.streamledger.savepoints.proof;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.model.projection.ViewScope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The proof that a rebuilt namespace equals the ledger authority (CS09 step 6): the report JSON
 * (deterministic field order), its SHA-256 digest, and a human summary. The cutover requires the
 * digest, so the alias can only move to a namespace whose exact report passed.
 *
 * @param json the report; {@code passed} and {@code failures} are inside it
 * @param bytes its canonical bytes (what {@code proof.json} holds and the digest covers)
 */
public record ProofReport(ObjectNode json, byte[] bytes) {

    public static final String JSON_FILE = "proof.json";
    public static final String SUMMARY_FILE = "proof.txt";
    public static final String DIGEST_FILE = "proof.sha256";

    static final ObjectMapper MAPPER =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public static ProofReport of(ObjectNode json) {
        try {
            return new ProofReport(json, MAPPER.writeValueAsBytes(json));
        } catch (IOException e) {
            throw new IllegalStateException("cannot render the proof report", e);
        }
    }

    public boolean passed() {
        return json.path("passed").asBoolean(false);
    }

    public int namespaceVersion() {
        return json.path("namespace").path("version").asInt();
    }

    public String projection() {
        return json.path("namespace").path("projection").asText();
    }

    /** The view scope the proof compared within; a report without one proved every account. */
    public ViewScope viewScope() {
        return ViewScope.parse(json.path("namespace").path("viewScope").asText(null));
    }

    public List<String> failures() {
        List<String> out = new ArrayList<>();
        json.path("failures").forEach(f -> out.add(f.asText()));
        return out;
    }

    /** SHA-256 (hex) of {@link #bytes()}. */
    public String digest() {
        return sha256(bytes);
    }

    public String summary() {
        StringBuilder b = new StringBuilder();
        JsonNode ns = json.path("namespace");
        b.append("Proof of ")
                .append(ns.path("portfolioTable").asText())
                .append(" (checkpoints ")
                .append(ns.path("checkpointName").asText())
                .append(") against ")
                .append(json.path("ledgerTable").asText())
                .append(", view scope ")
                .append(viewScope().label())
                .append('\n');
        JsonNode c = json.path("counts");
        b.append("  authorities=")
                .append(c.path("authorities").asLong())
                .append(" (outside the view scope: ")
                .append(c.path("authoritiesOutsideViewScope").asLong())
                .append(')')
                .append(" viewRows=")
                .append(c.path("viewRows").asLong())
                .append(" checkpointRows=")
                .append(c.path("checkpointRows").asLong())
                .append('\n');
        b.append("  openGaps=")
                .append(json.path("openGaps").path("count").asLong())
                .append(" duplicates=")
                .append(json.path("duplicates").path("count").asLong())
                .append(" missing=")
                .append(json.path("missing").path("count").asLong())
                .append(" extra=")
                .append(json.path("extra").path("count").asLong())
                .append(" mismatched=")
                .append(json.path("mismatched").path("count").asLong())
                .append('\n');
        b.append("  control totals compared: ")
                .append(json.path("controlTotals").size())
                .append(" assets\n");
        b.append(passed() ? "  RESULT: PASSED" : "  RESULT: FAILED").append('\n');
        for (String f : failures()) {
            b.append("   - ").append(f).append('\n');
        }
        b.append("  sha256=").append(digest()).append('\n');
        return b.toString();
    }

    /** Writes proof.json, proof.txt and proof.sha256 into {@code dir}. */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(JSON_FILE), bytes);
        Files.writeString(dir.resolve(SUMMARY_FILE), summary(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(DIGEST_FILE), digest() + "  " + JSON_FILE + "\n");
    }

    /** Reads a proof.json exactly as written; the digest is recomputed from its bytes. */
    public static ProofReport read(Path jsonFile) throws IOException {
        byte[] bytes = Files.readAllBytes(jsonFile);
        JsonNode n = MAPPER.readTree(bytes);
        if (!(n instanceof ObjectNode o)) {
            throw new IOException(jsonFile + " is not a proof report");
        }
        return new ProofReport(o, bytes);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
