package io.streamledger.local.kinesis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * What bounds the Kinesis destination's forwarding rate (not a test; CS06/CS07 Kinesis path): the
 * latency of one PutRecords of 500 records into kinesis-local as the target stream grows, for a
 * given shard count, optionally while consumers busy-poll GetRecords on caught-up shards of another
 * stream (what flink-connector-kinesis 4.3.0's polling reader does: no delay after an empty fetch).
 * Run with {@code java -cp <test classpath>
 * io.streamledger.local.kinesis.KinesisLocalPutRecordsBenchmark [shards] [batches] [pollers]}.
 */
public final class KinesisLocalPutRecordsBenchmark {
    private static final int BATCH = 500;
    private static final int RECORD_BYTES = 1_500; // a Ledger change with both images

    private KinesisLocalPutRecordsBenchmark() {}

    public static void main(String[] args) throws Exception {
        int shards = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int pollers = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        try (KinesisLocal kinesis = KinesisLocal.start()) {
            KinesisClient client = kinesis.client();
            kinesis.createStream("bench-target", shards);
            kinesis.createStream("bench-polled", 2);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong polls = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < pollers; p++) {
                String shard = "shardId-00000000000" + (p % 2);
                Thread t = new Thread(() -> busyPoll(client, shard, stop, polls), "poller-" + p);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            byte[] data = new byte[RECORD_BYTES];
            new Random(7).nextBytes(data);
            for (int b = 0; b < batches; b++) {
                List<PutRecordsRequestEntry> entries = new ArrayList<>(BATCH);
                for (int i = 0; i < BATCH; i++) {
                    entries.add(
                            PutRecordsRequestEntry.builder()
                                    .partitionKey(b + "-" + i)
                                    .data(SdkBytes.fromByteArray(data))
                                    .build());
                }
                long start = System.nanoTime();
                var response =
                        client.putRecords(r -> r.streamName("bench-target").records(entries));
                long millis = (System.nanoTime() - start) / 1_000_000;
                System.out.printf(
                        "shards=%d pollers=%d records-before=%d putRecords(%d)=%d ms failed=%d%n",
                        shards,
                        pollers,
                        (long) b * BATCH,
                        BATCH,
                        millis,
                        response.failedRecordCount());
            }
            stop.set(true);
            for (Thread t : threads) {
                t.join(10_000);
            }
            System.out.printf("GetRecords calls by pollers: %d%n", polls.get());
        }
    }

    private static void busyPoll(
            KinesisClient client, String shard, AtomicBoolean stop, AtomicLong polls) {
        String iterator =
                client.getShardIterator(
                                r ->
                                        r.streamName("bench-polled")
                                                .shardId(shard)
                                                .shardIteratorType(ShardIteratorType.LATEST))
                        .shardIterator();
        while (!stop.get()) {
            String it = iterator;
            iterator = client.getRecords(r -> r.shardIterator(it)).nextShardIterator();
            polls.incrementAndGet();
        }
    }
}
