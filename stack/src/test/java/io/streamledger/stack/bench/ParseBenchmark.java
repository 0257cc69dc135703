package io.streamledger.stack.bench;

import io.streamledger.jobs.source.ConnectorRecordJson;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.DynamoDbStreamsRecordParser;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * CPU and allocation per record of the source parse step (a main, not a test): the connector's
 * change-record JSON (DESIGN "Change records") through the tree path ({@code
 * ConnectorRecordJson.normalize} + the tree parser) and through the one-pass path, on one thread.
 * Thread CPU time and allocated bytes are counted by the JVM for this thread only, so the figures
 * hold on a loaded machine.
 *
 * <p>{@code java -cp <stack test classpath> io.streamledger.stack.bench.ParseBenchmark [records]}
 */
public final class ParseBenchmark {

    /** An AP12 authority MODIFY as the streams adapter serializes it (both images, ms time). */
    static final String AUTHORITY =
            "{\"eventID\":\"6a1f0c2d9e8b7a6f5e4d3c2b1a090807\",\"eventName\":\"MODIFY\","
                    + "\"eventVersion\":\"1.1\",\"eventSource\":\"aws:dynamodb\","
                    + "\"awsRegion\":\"us-east-1\",\"dynamodb\":{\"ApproximateCreationDateTime\":"
                    + "1764615600123,\"Keys\":{\"SK\":{\"S\":\"AUTH#CASH#USD\"},\"PK\":{\"S\":"
                    + "\"TEN#bench#ACCT#acct-17\"}},\"NewImage\":"
                    + image("1342.55", "12")
                    + ",\"OldImage\":"
                    + image("1211.05", "11")
                    + ",\"SequenceNumber\":\"400000000000000012345\",\"SizeBytes\":612,"
                    + "\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}";

    /** An AP10 posting row INSERT (new image only). */
    static final String POSTING =
            "{\"eventID\":\"1b2c3d4e5f60718293a4b5c6d7e8f901\",\"eventName\":\"INSERT\","
                    + "\"eventVersion\":\"1.1\",\"eventSource\":\"aws:dynamodb\","
                    + "\"awsRegion\":\"us-east-1\",\"dynamodb\":{\"ApproximateCreationDateTime\":"
                    + "1764615600456,\"Keys\":{\"SK\":{\"S\":\"POST#2026-12-01T19:00:00.000Z#"
                    + "t-9f8e7d6c5b4a39281706f5e4d3c2b1a0#L1\"},\"PK\":{\"S\":\"TEN#bench#ACCT"
                    + "#acct-17#M#2026-12#B#0\"}},\"NewImage\":{\"PK\":{\"S\":\"TEN#bench#ACCT"
                    + "#acct-17#M#2026-12#B#0\"},\"SK\":{\"S\":\"POST#2026-12-01T19:00:00.000Z#"
                    + "t-9f8e7d6c5b4a39281706f5e4d3c2b1a0#L1\"},\"tenant\":{\"S\":\"bench\"},"
                    + "\"txnId\":{\"S\":\"t-9f8e7d6c5b4a39281706f5e4d3c2b1a0\"},\"sourceId\":"
                    + "{\"S\":\"TRADE:o-bench-17-f0\"},\"line\":{\"N\":\"1\"},\"lineCount\":"
                    + "{\"N\":\"7\"},\"accountId\":{\"S\":\"acct-17\"},\"assetType\":{\"S\":"
                    + "\"CASH\"},\"asset\":{\"S\":\"USD\"},\"amount\":{\"N\":\"-4521.5\"},"
                    + "\"sequence\":{\"N\":\"118\"},\"recordedAt\":{\"S\":"
                    + "\"2026-12-01T19:00:00.120Z\"},\"effectiveAt\":{\"S\":"
                    + "\"2026-12-01T19:00:00.000Z\"},\"role\":{\"S\":\"CONSIDERATION\"},"
                    + "\"eventId\":{\"S\":\"e-o-bench-17-f0\"},\"grossExact\":{\"N\":"
                    + "\"4521.50\"},\"roundingResidual\":{\"N\":\"0\"},\"roundingMode\":{\"S\":"
                    + "\"HALF_EVEN\"}},\"SequenceNumber\":\"400000000000000012346\","
                    + "\"SizeBytes\":498,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}";

    private static String image(String posted, String version) {
        return "{\"PK\":{\"S\":\"TEN#bench#ACCT#acct-17\"},\"SK\":{\"S\":\"AUTH#CASH#USD\"},"
                + "\"tenant\":{\"S\":\"bench\"},\"accountId\":{\"S\":\"acct-17\"},"
                + "\"assetType\":{\"S\":\"CASH\"},\"asset\":{\"S\":\"USD\"},\"posted\":{\"N\":\""
                + posted
                + "\"},\"available\":{\"N\":\""
                + posted
                + "\"},\"reserved\":{\"N\":\"0\"},\"version\":{\"N\":\""
                + version
                + "\"},\"lastTxnId\":{\"S\":\"t-9f8e7d6c5b4a39281706f5e4d3c2b1a0\"},"
                + "\"updatedAt\":{\"S\":\"2026-12-01T19:00:00.120Z\"}}";
    }

    private interface Parser {
        ChangeRecord parse(byte[] json) throws Exception;
    }

    private ParseBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        List<byte[]> records =
                List.of(
                        AUTHORITY.getBytes(StandardCharsets.UTF_8),
                        POSTING.getBytes(StandardCharsets.UTF_8));
        Parser tree =
                b ->
                        DynamoDbStreamsRecordParser.parse(
                                ConnectorRecordJson.normalize(b), "Ledger", "shardId-1");
        Parser stream = b -> ConnectorRecordJson.parse(b, "Ledger", "shardId-1");
        for (byte[] r : records) {
            if (!tree.parse(r).equals(stream.parse(r))
                    || DynamoDbStreamsRecordParser.parseStreaming(r, "Ledger", "shardId-1", true)
                            == null) {
                throw new IllegalStateException("the paths disagree on " + new String(r));
            }
        }
        for (int round = 0; round < 3; round++) { // the last round is the figure
            measure("tree (normalize + tree parser)", tree, records, n, round == 2);
            measure("one pass (ConnectorRecordJson.parse)", stream, records, n, round == 2);
        }
    }

    private static void measure(String name, Parser p, List<byte[]> records, int n, boolean print)
            throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long bytes0 = threads.getThreadAllocatedBytes(id);
        long sink = 0;
        for (int i = 0; i < n; i++) {
            sink += p.parse(records.get(i & 1)).keys().size();
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        long bytes = threads.getThreadAllocatedBytes(id) - bytes0;
        if (print) {
            System.out.printf(
                    "%-40s %6.2f µs CPU, %,7d bytes allocated per record (%,d records, %d)%n",
                    name, cpu / 1e3 / n, bytes / n, n, sink % 2);
        }
    }
}
