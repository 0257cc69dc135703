package io.streamledger.local.streams;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.journal.JsonLinesJournal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Append-only JSON-lines journal of the Streams operations (enable, disable, commit, rollover) with
 * their times, written to the OS before the engine acknowledges a write, so that with {@code
 * --data-dir} stream ARNs, shards, sequence numbers and records survive kill -9 (CS07). Replay
 * re-runs the operations at their recorded times; a torn last line is ignored.
 */
final class StreamsJournal implements AutoCloseable {
    static final String FILE = "streams-journal.jsonl";

    private final JsonLinesJournal journal;

    StreamsJournal(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        this.journal =
                new JsonLinesJournal(
                        dir.resolve(FILE), AttributeValues.newMapper(), false, "streams journal");
    }

    /** Passes every complete event, in order; returns how many. */
    long replay(Consumer<ObjectNode> events) {
        return journal.replay(events);
    }

    void open() {
        journal.open();
    }

    /** One write() per event, so a crash tears at most the last line. */
    void append(ObjectNode event) {
        journal.append(event);
    }

    @Override
    public void close() {
        journal.close();
    }
}
