package io.streamledger.command.testing;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/** Reads a whole (kinesis-local) stream back, shard by shard in sequence order (AP16 checks). */
public final class KinesisRecords {

    private KinesisRecords() {}

    public static List<Record> readAll(KinesisClient kc, String stream) {
        List<Record> all = new ArrayList<>();
        for (Shard s : kc.listShards(b -> b.streamName(stream)).shards()) {
            String it =
                    kc.getShardIterator(
                                    b ->
                                            b.streamName(stream)
                                                    .shardId(s.shardId())
                                                    .shardIteratorType(
                                                            ShardIteratorType.TRIM_HORIZON))
                            .shardIterator();
            while (it != null) {
                String cur = it;
                var r = kc.getRecords(b -> b.shardIterator(cur).limit(10_000));
                all.addAll(r.records());
                it = r.records().isEmpty() ? null : r.nextShardIterator();
            }
        }
        return all;
    }
}
