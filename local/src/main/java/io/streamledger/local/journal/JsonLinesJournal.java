package io.streamledger.local.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append-only file of JSON objects, one per line, that the local endpoint writes to the OS
 * before it acknowledges a write and replays on start (CS01/CS07 durability of the local stack):
 * one write() per record, so a kill -9 tears at most the last line, and replay stops at a torn
 * line.
 */
public final class JsonLinesJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JsonLinesJournal.class);

    private final Path file;
    private final ObjectMapper mapper;
    private final boolean dsync;
    private final String label;
    private OutputStream out;

    /**
     * @param dsync open the appender with {@code DSYNC} so each record reaches the disk, not only
     *     the OS
     * @param label what the journal holds, for log lines and errors (e.g. "write-ahead log")
     */
    public JsonLinesJournal(Path file, ObjectMapper mapper, boolean dsync, String label) {
        this.file = file;
        this.mapper = mapper;
        this.dsync = dsync;
        this.label = label;
    }

    public Path file() {
        return file;
    }

    /** Passes every complete record, in order, stopping at a torn line; returns how many. */
    public long replay(Consumer<ObjectNode> records) {
        if (!Files.exists(file)) {
            return 0;
        }
        long count = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode rec;
                try {
                    rec = mapper.readTree(line);
                } catch (IOException torn) {
                    LOG.warn("ignoring a torn {} line after record {} in {}", label, count, file);
                    break;
                }
                records.accept((ObjectNode) rec);
                count++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LOG.info("replayed {} {} records from {}", count, label, file);
        return count;
    }

    /** Opens the file for appending (creating it if absent). */
    public void open() {
        try {
            out =
                    dsync
                            ? Files.newOutputStream(
                                    file,
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.WRITE,
                                    StandardOpenOption.APPEND,
                                    StandardOpenOption.DSYNC)
                            : Files.newOutputStream(
                                    file,
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.WRITE,
                                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends one record with a single write() call; the caller serialises appends. */
    public void append(ObjectNode record) {
        try {
            byte[] json = mapper.writeValueAsBytes(record);
            byte[] line = new byte[json.length + 1];
            System.arraycopy(json, 0, line, 0, json.length);
            line[json.length] = '\n';
            out.write(line);
        } catch (IOException e) {
            throw new UncheckedIOException(label + " append failed: " + file, e);
        }
    }

    @Override
    public void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                LOG.warn("closing {}", file, e);
            }
        }
    }
}
