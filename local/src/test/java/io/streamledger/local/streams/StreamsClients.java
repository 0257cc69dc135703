package io.streamledger.local.streams;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** SDK v2 DynamoDbStreamsClient for the local endpoint, and a lineage-ordered reader for tests. */
public final class StreamsClients {
    private StreamsClients() {}

    public static DynamoDbStreamsClient streams(URI endpoint) {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create("AKIDLOCAL", "secret")))
                .build();
    }

    /** All shards, following DescribeStream pagination. */
    public static List<Shard> shards(DynamoDbStreamsClient c, String arn) {
        List<Shard> out = new ArrayList<>();
        String start = null;
        do {
            String s = start;
            StreamDescription d =
                    c.describeStream(b -> b.streamArn(arn).limit(2).exclusiveStartShardId(s))
                            .streamDescription();
            out.addAll(d.shards());
            start = d.lastEvaluatedShardId();
        } while (start != null);
        return out;
    }

    /** Reads one shard from TRIM_HORIZON until its end (closed) or an empty page (open). */
    public static List<Record> readShard(DynamoDbStreamsClient c, String arn, String shardId) {
        List<Record> out = new ArrayList<>();
        String it =
                c.getShardIterator(
                                b ->
                                        b.streamArn(arn)
                                                .shardId(shardId)
                                                .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                        .shardIterator();
        while (it != null) {
            String current = it;
            GetRecordsResponse page = c.getRecords(b -> b.shardIterator(current).limit(100));
            out.addAll(page.records());
            if (page.records().isEmpty() && page.nextShardIterator() != null) {
                break; // open shard drained
            }
            it = page.nextShardIterator();
        }
        return out;
    }

    /** Every record, shards read in creation order so parents precede children. */
    public static List<Record> readAll(DynamoDbStreamsClient c, String arn) {
        List<Record> out = new ArrayList<>();
        for (Shard s : shards(c, arn)) {
            out.addAll(readShard(c, arn, s.shardId()));
        }
        return out;
    }
}
