package io.streamledger.local.streams;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.testing.Changes;
import io.streamledger.local.testing.FakeTableCatalog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * In-process cost of the Streams feature (not a test): commits appended per second (the work the
 * engine's commit path pays) and records served per second by GetRecords (CS07). Run with {@code
 * java -cp <test classpath> io.streamledger.local.streams.StreamsBenchmark [commits]}.
 */
public final class StreamsBenchmark {
    private StreamsBenchmark() {}

    public static void main(String[] args) {
        int commits = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        for (int round = 1; round <= 2; round++) { // round 1 warms the JIT
            run(commits, round == 2);
        }
    }

    private static void run(int commits, boolean print) {
        FakeTableCatalog catalog = new FakeTableCatalog();
        catalog.createTable("Orders");
        LocalDynamoDbStreams streams =
                new LocalDynamoDbStreams(
                        StreamsOptions.builder()
                                .shardsPerTable(2)
                                .maxRetainedPerShard(commits)
                                .build());
        streams.attach(catalog);
        String arn = streams.enable("Orders", "NEW_AND_OLD_IMAGES").arn();
        Instant now = Instant.now();
        List<ItemChange> singles = new ArrayList<>();
        for (int i = 0; i < 1024; i++) {
            singles.add(Changes.modify("Orders", "acct-" + i, 1, 2, now));
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < commits; i++) {
            streams.onCommit(List.of(singles.get(i & 1023)));
        }
        long appendNanos = System.nanoTime() - t0;

        long read = 0;
        long t1 = System.nanoTime();
        JsonNodeFactory json = JsonNodeFactory.instance;
        for (JsonNode shard :
                streams.describeStream(json.objectNode().put("StreamArn", arn))
                        .get("StreamDescription")
                        .get("Shards")) {
            String it =
                    streams.getShardIterator(
                                    json.objectNode()
                                            .put("StreamArn", arn)
                                            .put("ShardId", shard.get("ShardId").asText())
                                            .put("ShardIteratorType", "TRIM_HORIZON"))
                            .get("ShardIterator")
                            .asText();
            while (true) {
                ObjectNode page =
                        streams.getRecords(
                                json.objectNode().put("ShardIterator", it).put("Limit", 1000));
                int n = page.get("Records").size();
                read += n;
                if (n == 0) {
                    break;
                }
                it = page.get("NextShardIterator").asText();
            }
        }
        long readNanos = System.nanoTime() - t1;
        if (print) {
            System.out.printf(
                    "append: %,d single-item commits in %.2f s = %,.0f commits/s (%.2f µs each)%n",
                    commits,
                    appendNanos / 1e9,
                    commits / (appendNanos / 1e9),
                    appendNanos / 1e3 / commits);
            System.out.printf(
                    "GetRecords: %,d records in %.2f s = %,.0f records/s%n",
                    read, readNanos / 1e9, read / (readNanos / 1e9));
        }
    }
}
