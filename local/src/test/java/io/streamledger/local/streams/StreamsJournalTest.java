package io.streamledger.local.streams;

import static io.streamledger.local.testing.Changes.insert;
import static io.streamledger.local.testing.Changes.modify;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.testing.Changes;
import io.streamledger.local.testing.FakeTableCatalog;
import io.streamledger.local.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Streams state survives a restart through the journal, and the engine's DDL replay is inert. */
class StreamsJournalTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @TempDir Path dir;

    private final MutableClock clock = new MutableClock(T0);

    private LocalDynamoDbStreams open() {
        LocalDynamoDbStreams s =
                new LocalDynamoDbStreams(
                        StreamsOptions.builder()
                                .shardsPerTable(2)
                                .maxRecordsPerShard(3)
                                .shuffleTransactions(true)
                                .clock(clock)
                                .build(),
                        dir);
        return s;
    }

    private static void attach(LocalDynamoDbStreams s) {
        FakeTableCatalog catalog = new FakeTableCatalog();
        catalog.createTable("Orders");
        s.attach(catalog);
    }

    private static String everything(LocalDynamoDbStreams s) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        StringBuilder out = new StringBuilder();
        for (JsonNode st : s.listStreams(json.objectNode()).get("Streams")) {
            String arn = st.get("StreamArn").asText();
            out.append(s.describeStream(json.objectNode().put("StreamArn", arn))).append('\n');
            for (JsonNode r : LocalDynamoDbStreamsTest.readAll(s, arn)) {
                out.append(r).append('\n');
            }
        }
        return out.toString();
    }

    @Test
    void restartRestoresStreamsShardsSequencesAndRecords() throws Exception {
        LocalDynamoDbStreams first = open();
        attach(first);
        first.enable("Orders", "NEW_AND_OLD_IMAGES");
        for (int v = 1; v <= 7; v++) {
            clock.advance(Duration.ofSeconds(1));
            first.onCommit(List.of(modify("Orders", "o" + (v % 3), v, v + 1, clock.instant())));
        }
        List<ItemChange> tx = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            tx.add(Changes.inTransaction(insert("Orders", "t" + i, clock.instant()), "tx"));
        }
        first.onCommit(tx);
        first.rolloverShards("Orders");
        first.disable("Orders");
        clock.advance(Duration.ofSeconds(1));
        first.enable("Orders", "KEYS_ONLY");
        first.onCommit(List.of(insert("Orders", "after", clock.instant())));
        first.onCommit(
                List.of(insert("Other", "ignored", clock.instant()))); // no stream: not journaled
        String before = everything(first);
        var position = first.position("Orders").orElseThrow();
        first.close();

        LocalDynamoDbStreams second = open();
        // the engine replays its DDL before attach: these must not change the restored state
        second.enable("Orders", "NEW_AND_OLD_IMAGES");
        second.disable("Orders");
        second.enable("Orders", "KEYS_ONLY");
        attach(second);
        assertThat(everything(second)).isEqualTo(before);
        assertThat(second.position("Orders")).contains(position);

        second.onCommit(List.of(insert("Orders", "later", clock.instant())));
        var after = second.position("Orders").orElseThrow();
        String newest =
                after.lastSequenceByShard().values().stream().max(String::compareTo).orElseThrow();
        String oldest =
                position.lastSequenceByShard().values().stream()
                        .max(String::compareTo)
                        .orElseThrow();
        assertThat(newest).isGreaterThan(oldest);
        second.close();
    }

    @Test
    void aTornLastLineIsIgnored() throws Exception {
        LocalDynamoDbStreams first = open();
        attach(first);
        String arn = first.enable("Orders", "NEW_IMAGE").arn();
        first.onCommit(List.of(insert("Orders", "o1", T0)));
        first.close();
        Files.writeString(
                dir.resolve(StreamsJournal.FILE),
                "{\"op\":\"commit\",\"at\":\"2026-",
                StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        LocalDynamoDbStreams second = open();
        attach(second);
        assertThat(LocalDynamoDbStreamsTest.keys(LocalDynamoDbStreamsTest.readAll(second, arn)))
                .containsExactly("o1");
        second.close();
    }
}
