package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Append-only log of table definitions and committed item images, one JSON line per record, written
 * (to the OS, surviving kill -9) before a write is acknowledged and replayed on start (CS01
 * durability of the local stack). A torn last line from a crash is ignored.
 */
final class WriteAheadLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);
    static final String FILE = "dynamodb-wal.jsonl";

    private final Path file;
    private final ObjectMapper mapper;
    private final boolean fsync;
    private OutputStream out;

    WriteAheadLog(Path dir, ObjectMapper mapper, boolean fsync) {
        this.mapper = mapper;
        this.fsync = fsync;
        try {
            Files.createDirectories(dir);
            this.file = dir.resolve(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads every complete record in order. */
    void replay(Consumer<ObjectNode> records) {
        if (!Files.exists(file)) {
            return;
        }
        long count = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode rec;
                try {
                    rec = mapper.readTree(line);
                } catch (IOException torn) {
                    LOG.warn("ignoring a torn WAL record at record {} of {}", count, file);
                    break;
                }
                records.accept((ObjectNode) rec);
                count++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LOG.info("replayed {} records from {}", count, file);
    }

    /**
     * Replaces the log with the given records (a compacted image of the live state): written to a
     * temporary file, forced to disk, then atomically moved over the old log, so a crash leaves
     * either the old or the new log.
     */
    void rewrite(List<ObjectNode> records) {
        Path tmp = file.resolveSibling(FILE + ".compacting");
        try (FileChannel ch =
                FileChannel.open(
                        tmp,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            var out = Channels.newOutputStream(ch);
            var buffered = new java.io.BufferedOutputStream(out, 1 << 16);
            for (ObjectNode r : records) {
                buffered.write(mapper.writeValueAsBytes(r));
                buffered.write('\n');
            }
            buffered.flush();
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("compacting " + file, e);
        }
        try {
            Files.move(
                    tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("compacting " + file, e);
        }
        LOG.info("compacted {} to {} records", file, records.size());
    }

    void open() {
        try {
            out =
                    Files.newOutputStream(
                            file,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.APPEND,
                            fsync ? StandardOpenOption.DSYNC : StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends one record; caller holds the commit lock. One write() call per record. */
    void append(ObjectNode record) {
        try {
            byte[] json = mapper.writeValueAsBytes(record);
            byte[] line = new byte[json.length + 1];
            System.arraycopy(json, 0, line, 0, json.length);
            line[json.length] = '\n';
            out.write(line);
        } catch (IOException e) {
            throw new UncheckedIOException("write-ahead log append failed: " + file, e);
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
