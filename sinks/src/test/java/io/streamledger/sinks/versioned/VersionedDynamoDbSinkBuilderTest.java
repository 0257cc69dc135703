package io.streamledger.sinks.versioned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.client.DynamoDbClientConfig;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/** Builder defaults, limits and serializability of the configured sink. */
class VersionedDynamoDbSinkBuilderTest {

    private static VersionedDynamoDbSinkBuilder<VersionedWrite> builder() {
        return VersionedDynamoDbSink.<VersionedWrite>builder()
                .elementConverter((w, ctx) -> w)
                .clientConfig(DynamoDbClientConfig.local("http://127.0.0.1:1"));
    }

    @Test
    void defaultsBuildASerializableSink() throws Exception {
        VersionedDynamoDbSink<VersionedWrite> sink = builder().build();

        assertThat(sink.settings().guard().strategy()).isEqualTo(GuardStrategy.VERSION_GUARD);
        assertThat(sink.settings().flushOnCheckpoint()).isTrue();
        byte[] bytes = InstantiationUtil.serializeObject(sink);
        Object copy = InstantiationUtil.deserializeObject(bytes, getClass().getClassLoader());
        assertThat(copy).isInstanceOf(VersionedDynamoDbSink.class);
    }

    @Test
    void settingsOutsideTheirLimitsAreRejectedByName() {
        assertThatThrownBy(() -> builder().maxBatchSize(20000).build())
                .hasMessageContaining("maxBatchSize must be in [1, 10000]");
        assertThatThrownBy(() -> builder().maxBatchSize(100).maxBufferedRequests(100).build())
                .hasMessageContaining("maxBufferedRequests");
        assertThatThrownBy(() -> builder().maxInFlightRequests(0).build())
                .hasMessageContaining("maxInFlightRequests");
        assertThatThrownBy(() -> builder().maxRetries(-1).build())
                .hasMessageContaining("maxRetries");
        assertThatThrownBy(() -> builder().consumedCapacity(ReturnConsumedCapacity.NONE).build())
                .hasMessageContaining("TOTAL or INDEXES");
        assertThatThrownBy(() -> builder().retryBackoff(100, 10).build())
                .hasMessageContaining("retryMaxDelayMillis");
    }

    @Test
    void clientConfigNeverPrintsTheSecret() {
        DynamoDbClientConfig c =
                DynamoDbClientConfig.builder().staticCredentials("AKID", "s3cr3t").build();
        assertThat(c.toString()).doesNotContain("s3cr3t").contains("STATIC");
        assertThatThrownBy(() -> DynamoDbClientConfig.builder().endpointOverride("nohost").build())
                .hasMessageContaining("absolute URI");
    }
}
