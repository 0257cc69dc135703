package io.streamledger.jobs.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.change.ChangeRecordParseException;
import io.streamledger.model.change.DynamoDbStreamsRecordParser;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The connector's JSON: one streaming pass when well-formed, the tree (and its errors) otherwise.
 */
class ConnectorRecordJsonTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void wellFormedConnectorJsonTakesTheStreamingPassToTheNormalizedTreesRecord() throws Exception {
        byte[] json = bytes(ParseChangesTest.connectorJson("e-1", 1_764_496_800_123L));
        assertThat(DynamoDbStreamsRecordParser.parseStreaming(json, "Context", "s-1", true))
                .isNotNull();
        assertThat(ConnectorRecordJson.parse(json, "Context", "s-1"))
                .isEqualTo(
                        DynamoDbStreamsRecordParser.parse(
                                ConnectorRecordJson.normalize(json), "Context", "s-1"));
        assertThat(ConnectorRecordJson.parse(json, "Context", "s-1").approximateCreationDateTime())
                .isEqualTo(Instant.parse("2025-11-30T10:00:00.123Z"));
    }

    @Test
    void theAdaptersLowerCaseUserIdentityIsReadEitherWay() throws Exception {
        String ttl =
                ParseChangesTest.connectorJson("e-2", 1_764_496_800_000L)
                                .replace("\"INSERT\"", "\"REMOVE\"")
                                .replace("NewImage", "OldImage")
                                .replaceFirst("\\}\\}$", "},")
                        + "\"userIdentity\":{\"principalId\":\"dynamodb.amazonaws.com\","
                        + "\"type\":\"Service\"}}";
        assertThat(DynamoDbStreamsRecordParser.parseStreaming(bytes(ttl), "Context", null, true))
                .isNotNull();
        assertThat(ConnectorRecordJson.parse(bytes(ttl), "Context", null).isTtlDelete()).isTrue();
        assertThat(ConnectorRecordJson.parse(bytes(ttl), "Context", null))
                .isEqualTo(
                        DynamoDbStreamsRecordParser.parse(
                                ConnectorRecordJson.normalize(bytes(ttl)), "Context", null));
    }

    @Test
    void aMalformedRecordFailsWithTheTreeParsersNamedError() {
        byte[] json =
                bytes(
                        ParseChangesTest.connectorJson("e-3", 1_764_496_800_000L)
                                .replace("\"100\"", "\"12ab\""));
        assertThat(DynamoDbStreamsRecordParser.parseStreaming(json, "Context", null, true))
                .isNull();
        assertThatThrownBy(() -> ConnectorRecordJson.parse(json, "Context", null))
                .isInstanceOf(ChangeRecordParseException.class)
                .hasMessageContaining("$.dynamodb.SequenceNumber");
    }
}
