package io.streamledger.local.streams;

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
 * Append-only JSON-lines journal of the Streams operations (enable, disable, commit, rollover) with
 * their times, written to the OS before the engine acknowledges a write, so that with {@code
 * --data-dir} stream ARNs, shards, sequence numbers and records survive kill -9 (CS07). Replay
 * re-runs the operations at their recorded times; a torn last line is ignored.
 */
final class StreamsJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsJournal.class);
    static final String FILE = "streams-journal.jsonl";

    private final Path file;
    private final ObjectMapper mapper = new ObjectMapper();
    private OutputStream out;

    StreamsJournal(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        this.file = dir.resolve(FILE);
    }

    /** Passes every complete event, in order; returns how many. */
    long replay(Consumer<ObjectNode> events) {
        if (!Files.exists(file)) {
            return 0;
        }
        long count = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode event;
                try {
                    event = mapper.readTree(line);
                } catch (IOException torn) {
                    LOG.warn(
                            "ignoring a torn streams journal line after event {} in {}",
                            count,
                            file);
                    break;
                }
                events.accept((ObjectNode) event);
                count++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LOG.info("replayed {} streams events from {}", count, file);
        return count;
    }

    void open() {
        try {
            out =
                    Files.newOutputStream(
                            file,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One write() per event, so a crash tears at most the last line. */
    void append(ObjectNode event) {
        try {
            byte[] json = mapper.writeValueAsBytes(event);
            byte[] line = new byte[json.length + 1];
            System.arraycopy(json, 0, line, 0, json.length);
            line[json.length] = '\n';
            out.write(line);
        } catch (IOException e) {
            throw new UncheckedIOException("streams journal append failed: " + file, e);
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
