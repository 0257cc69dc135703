package io.streamledger.local.kinesis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * Starts kinesis-local, round-trips a record through the SDK v2 client, and stops it (CS06/CS07
 * test stack).
 */
class KinesisLocalITCase {

    @Test
    void startsCreatesStreamPutsGetsAndStopsTheProcess() {
        KinesisLocal kinesis = KinesisLocal.start();
        long pid = kinesis.pid();
        try {
            assertThat(kinesis.endpoint().toString()).startsWith("http://127.0.0.1:");
            String arn = kinesis.createStream("launcher-it", 1);
            assertThat(arn).isEqualTo("arn:aws:kinesis:us-east-1:000000000000:stream/launcher-it");

            KinesisClient client = kinesis.client();
            client.putRecord(
                    b ->
                            b.streamName("launcher-it")
                                    .partitionKey("k1")
                                    .data(SdkBytes.fromString("hello", StandardCharsets.UTF_8)));
            String shardId =
                    client.listShards(b -> b.streamName("launcher-it")).shards().get(0).shardId();
            String iterator =
                    client.getShardIterator(
                                    b ->
                                            b.streamName("launcher-it")
                                                    .shardId(shardId)
                                                    .shardIteratorType(
                                                            ShardIteratorType.TRIM_HORIZON))
                            .shardIterator();
            List<Record> records = client.getRecords(b -> b.shardIterator(iterator)).records();
            assertThat(records).hasSize(1);
            assertThat(records.get(0).data().asUtf8String()).isEqualTo("hello");
            assertThat(records.get(0).partitionKey()).isEqualTo("k1");
        } finally {
            kinesis.close();
        }
        assertThat(kinesis.isAlive()).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void findsProjectRootByGitDirectory() {
        java.nio.file.Path root =
                KinesisLocalInstaller.projectRoot(java.nio.file.Path.of("").toAbsolutePath());
        assertThat(root.resolve(".git")).exists();
    }
}
