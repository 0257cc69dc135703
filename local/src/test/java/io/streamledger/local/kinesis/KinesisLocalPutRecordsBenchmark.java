package io.streamledger.local.kinesis;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;

/**
 * What bounds the Kinesis destination's forwarding rate (not a test; CS06/CS07 Kinesis path): the
 * latency of one PutRecords of 500 records into kinesis-local as the target stream grows, for a
 * given shard count, and of a GetRecords on a caught-up shard of that stream, optionally while
 * consumers poll the target stream's shards the way flink-connector-kinesis 4.3.0's polling reader
 * does (read from TRIM_HORIZON, follow the iterator, no delay after an empty fetch unless {@code
 * idleMillis} > 0). Run with {@code java -cp <test classpath>
 * io.streamledger.local.kinesis.KinesisLocalPutRecordsBenchmark [shards] [batches] [pollers]
 * [idleMillis]} ({@code -Dbench.endpoint=http://127.0.0.1:<port>} uses a kinesis-local started by
 * hand, e.g. under {@code node --cpu-prof}).
 */
public final class KinesisLocalPutRecordsBenchmark {
    private static final int BATCH = 500;
    private static final int RECORD_BYTES = 1_500; // a Ledger change with both images
    private static final String TARGET = "bench-target";

    private KinesisLocalPutRecordsBenchmark() {}

    public static void main(String[] args) throws Exception {
        int shards = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int pollers = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        long idleMillis = args.length > 3 ? Long.parseLong(args[3]) : 0;
        String external = System.getProperty("bench.endpoint"); // a kinesis-local started by hand
        try (KinesisLocal kinesis = external == null ? KinesisLocal.start() : null;
                KinesisClient client =
                        KinesisLocal.newClient(
                                external == null ? kinesis.endpoint() : URI.create(external))) {
            URI endpoint = external == null ? kinesis.endpoint() : URI.create(external);
            client.createStream(b -> b.streamName(TARGET).shardCount(shards));
            while (client.describeStreamSummary(b -> b.streamName(TARGET))
                            .streamDescriptionSummary()
                            .streamStatus()
                    != StreamStatus.ACTIVE) {
                Thread.sleep(100);
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong polls = new AtomicLong();
            AtomicLong read = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < pollers; p++) {
                int first = p;
                Thread t =
                        new Thread(
                                () -> {
                                    KinesisClient own = KinesisLocal.newClient(endpoint);
                                    pollShards(
                                            own,
                                            first,
                                            pollers,
                                            shards,
                                            idleMillis,
                                            stop,
                                            polls,
                                            read);
                                },
                                "poller-" + p);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            byte[] data = new byte[RECORD_BYTES];
            new Random(7).nextBytes(data);
            long benchStart = System.nanoTime();
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
                var response = client.putRecords(r -> r.streamName(TARGET).records(entries));
                long millis = (System.nanoTime() - start) / 1_000_000;
                long before = (long) b * BATCH;
                System.out.printf(
                        "shards=%d pollers=%d idle=%dms records-before=%d per-shard=%d"
                                + " putRecords(%d)=%d ms failed=%d polls=%d read=%d%n",
                        shards,
                        pollers,
                        idleMillis,
                        before,
                        before / shards,
                        BATCH,
                        millis,
                        response.failedRecordCount(),
                        polls.get(),
                        read.get());
                if (pollers == 0 && (b + 1) % 10 == 0) {
                    System.out.printf(
                            "  caught-up GetRecords on a shard of %d records: %d ms%n",
                            (before + BATCH) / shards, caughtUpGetMillis(client));
                }
            }
            double seconds = (System.nanoTime() - benchStart) / 1e9;
            stop.set(true);
            for (Thread t : threads) {
                t.join(10_000);
            }
            System.out.printf(
                    "put %d records in %.1f s = %.0f records/s; GetRecords calls %d, records read"
                            + " %d%n",
                    (long) batches * BATCH,
                    seconds,
                    batches * BATCH / seconds,
                    polls.get(),
                    read.get());
        }
    }

    /** Reads shard 0 to its end, then times one more (empty) GetRecords from there. */
    private static long caughtUpGetMillis(KinesisClient client) {
        String iterator = trimHorizon(client, 0);
        long readStart = System.nanoTime();
        long records = 0;
        while (true) {
            String it = iterator;
            GetRecordsResponse r = client.getRecords(g -> g.shardIterator(it));
            iterator = r.nextShardIterator();
            records += r.records().size();
            if (r.records().isEmpty()) {
                System.out.printf(
                        "  read shard 0 (%d records) from TRIM_HORIZON in %d ms%n",
                        records, (System.nanoTime() - readStart) / 1_000_000);
                String last = iterator;
                long start = System.nanoTime();
                client.getRecords(g -> g.shardIterator(last));
                return (System.nanoTime() - start) / 1_000_000;
            }
        }
    }

    private static String trimHorizon(KinesisClient client, int shard) {
        return client.getShardIterator(
                        r ->
                                r.streamName(TARGET)
                                        .shardId(String.format("shardId-%012d", shard))
                                        .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                .shardIterator();
    }

    /** Round-robin over this poller's shards like the 4.3.0 polling split reader. */
    private static void pollShards(
            KinesisClient client,
            int first,
            int step,
            int shards,
            long idleMillis,
            AtomicBoolean stop,
            AtomicLong polls,
            AtomicLong read) {
        List<String> iterators = new ArrayList<>();
        for (int s = first; s < shards; s += step) {
            iterators.add(trimHorizon(client, s));
        }
        while (!stop.get()) {
            for (int i = 0; i < iterators.size() && !stop.get(); i++) {
                String it = iterators.get(i);
                GetRecordsResponse r = client.getRecords(g -> g.shardIterator(it));
                iterators.set(i, r.nextShardIterator());
                polls.incrementAndGet();
                read.addAndGet(r.records().size());
                if (r.records().isEmpty() && idleMillis > 0) {
                    try {
                        Thread.sleep(idleMillis);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }
}
