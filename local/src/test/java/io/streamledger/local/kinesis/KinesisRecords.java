package io.streamledger.local.kinesis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/** Reads what the Kinesis destination forwarded to a kinesis-local stream (CS06 records). */
public final class KinesisRecords {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private KinesisRecords() {}

    /** Every record of a stream, shard by shard from TRIM_HORIZON, as JSON. */
    public static List<JsonNode> readAll(KinesisClient client, String stream) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (Shard shard : client.listShards(b -> b.streamName(stream)).shards()) {
            String it =
                    client.getShardIterator(
                                    b ->
                                            b.streamName(stream)
                                                    .shardId(shard.shardId())
                                                    .shardIteratorType(
                                                            ShardIteratorType.TRIM_HORIZON))
                            .shardIterator();
            while (it != null) {
                String current = it;
                GetRecordsResponse page = client.getRecords(b -> b.shardIterator(current));
                for (Record r : page.records()) {
                    out.add(MAPPER.readTree(r.data().asByteArray()));
                }
                if (page.records().isEmpty()) {
                    break;
                }
                it = page.nextShardIterator();
            }
        }
        return out;
    }
}
