package io.streamledger.savepoints.recon;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.ReconBatch;
import io.streamledger.savepoints.export.ExportManifest;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Writes an export reconciliation's result into a new folder (AP14/AP15): {@code batches.jsonl}
 * (one {@link ReconBatch} per line, the streaming job's batch shape), {@code breaks.jsonl} (one
 * {@link BreakRecord} per line) and {@code reconcile.json} (the declared window and the manifests
 * of the exports it read: table, export ARN, export time, item count).
 */
public final class ReconcileReport {

    public static final String BATCHES = "batches.jsonl";
    public static final String BREAKS = "breaks.jsonl";
    public static final String SUMMARY = "reconcile.json";

    private static final ObjectMapper MAPPER =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private ReconcileReport() {}

    /** Refuses a folder that already holds a report (results are never overwritten). */
    public static void write(
            Path out, ExportReconciliation.Window window, ExportReconciliation.Result r)
            throws IOException {
        Files.createDirectories(out);
        if (Files.exists(out.resolve(SUMMARY))) {
            throw new IllegalArgumentException(out + " already holds a reconciliation report");
        }
        lines(out.resolve(BATCHES), r.batches());
        lines(out.resolve(BREAKS), r.breaks());
        ObjectNode s = MAPPER.createObjectNode();
        s.put("windowFrom", window.from().toString());
        s.put("windowTo", window.to().toString());
        s.put("batches", r.batches().size());
        s.put("breaks", r.breaks().size());
        ObjectNode ex = s.putObject("exports");
        for (ExportManifest m : r.exports().values()) {
            ObjectNode e = ex.putObject(m.tableName());
            e.put("exportArn", m.exportArn());
            e.put("exportTime", m.exportTime() == null ? null : m.exportTime().toString());
            e.put("itemCount", m.itemCount());
            e.put("directory", m.directory());
        }
        Files.writeString(
                out.resolve(SUMMARY),
                MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(s),
                StandardOpenOption.CREATE_NEW);
    }

    private static void lines(Path file, List<?> values) throws IOException {
        try (BufferedWriter w =
                Files.newBufferedWriter(
                        file, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW)) {
            for (Object v : values) {
                w.write(MAPPER.writeValueAsString(v));
                w.newLine();
            }
        }
    }

    /** Reads {@code breaks.jsonl} back. */
    public static List<BreakRecord> readBreaks(Path out) throws IOException {
        return Files.readAllLines(out.resolve(BREAKS)).stream()
                .filter(l -> !l.isBlank())
                .map(ReconcileReport::breakOf)
                .toList();
    }

    /** Reads {@code batches.jsonl} back. */
    public static List<ReconBatch> readBatches(Path out) throws IOException {
        return Files.readAllLines(out.resolve(BATCHES)).stream()
                .filter(l -> !l.isBlank())
                .map(l -> read(l, ReconBatch.class))
                .toList();
    }

    private static BreakRecord breakOf(String line) {
        return read(line, BreakRecord.class);
    }

    private static <T> T read(String line, Class<T> type) {
        try {
            return MAPPER.readValue(line, type);
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable report line: " + line, e);
        }
    }
}
