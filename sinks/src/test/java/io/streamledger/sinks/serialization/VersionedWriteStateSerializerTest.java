package io.streamledger.sinks.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.sinks.versioned.ExtraCondition;
import io.streamledger.sinks.versioned.VersionedWrite;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.RequestEntryWrapper;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Round trip and version rejection of the sink's buffered state (seed AP13). */
class VersionedWriteStateSerializerTest {
    /** Offset of the first entry's format byte: identifier long, count int, entry size long. */
    private static final int FIRST_ENTRY_FORMAT_OFFSET = 8 + 4 + 8;

    private final VersionedWriteStateSerializer serializer = new VersionedWriteStateSerializer();

    private static VersionedWrite everyType() {
        Map<String, AttributeValue> attributes =
                Map.ofEntries(
                        Map.entry("s", AttributeValue.fromS("ünïcødé " + "x".repeat(70_000))),
                        Map.entry("n", AttributeValue.fromN("-12345.6789")),
                        Map.entry(
                                "b",
                                AttributeValue.fromB(
                                        SdkBytes.fromByteArray(new byte[] {0, 1, -1}))),
                        Map.entry("bool", AttributeValue.fromBool(true)),
                        Map.entry("nul", AttributeValue.fromNul(true)),
                        Map.entry("ss", AttributeValue.fromSs(List.of("a", "b"))),
                        Map.entry("ns", AttributeValue.fromNs(List.of("1", "2.5"))),
                        Map.entry(
                                "bs",
                                AttributeValue.fromBs(
                                        List.of(
                                                SdkBytes.fromUtf8String("x"),
                                                SdkBytes.fromUtf8String("y")))),
                        Map.entry(
                                "l",
                                AttributeValue.fromL(
                                        List.of(
                                                AttributeValue.fromS("e"),
                                                AttributeValue.fromM(
                                                        Map.of(
                                                                "deep",
                                                                AttributeValue.fromN("1")))))),
                        Map.entry(
                                "m",
                                AttributeValue.fromM(Map.of("k", AttributeValue.fromBool(false)))));
        return VersionedWrite.of(
                "Portfolio_v3",
                Map.of(
                        "PK", AttributeValue.fromS("TEN#t#ACCT#a"),
                        "SK", AttributeValue.fromS("POS#AAPL")),
                attributes,
                42,
                ExtraCondition.of(
                        "#gap <> :open",
                        Map.of("#gap", "gap"),
                        Map.of(":open", AttributeValue.fromBool(true))));
    }

    private static BufferedRequestState<VersionedWrite> state(VersionedWrite... writes) {
        Deque<RequestEntryWrapper<VersionedWrite>> deque = new ArrayDeque<>();
        for (VersionedWrite w : writes) {
            deque.add(new RequestEntryWrapper<>(w, 100));
        }
        return new BufferedRequestState<>(deque);
    }

    private static List<VersionedWrite> entries(BufferedRequestState<VersionedWrite> s) {
        return s.getBufferedRequestEntries().stream()
                .map(RequestEntryWrapper::getRequestEntry)
                .collect(Collectors.toList());
    }

    @Test
    void roundTripKeepsEveryAttributeTypeAndTheExtraCondition() throws IOException {
        VersionedWrite plain =
                VersionedWrite.of(
                        "Break", Map.of("PK", AttributeValue.fromS("BRK#1")), Map.of(), 0);
        BufferedRequestState<VersionedWrite> original = state(everyType(), plain);

        BufferedRequestState<VersionedWrite> restored =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(original));

        assertThat(entries(restored)).containsExactly(everyType(), plain);
        assertThat(restored.getBufferedRequestEntries().get(0).getSize()).isEqualTo(100);
    }

    @Test
    void unknownStateVersionIsRejected() throws IOException {
        byte[] bytes = serializer.serialize(state(everyType()));

        assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion() + 1, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown versioned-sink state version 2");
    }

    @Test
    void unknownEntryFormatIsRejected() throws IOException {
        byte[] bytes = serializer.serialize(state(everyType()));
        assertThat(bytes[FIRST_ENTRY_FORMAT_OFFSET])
                .isEqualTo(VersionedWriteStateSerializer.ENTRY_FORMAT_V1);
        bytes[FIRST_ENTRY_FORMAT_OFFSET] = 9;

        assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion(), bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown VersionedWrite entry format 9");
    }

    @Test
    void unknownAttributeTagIsRejected() throws IOException {
        VersionedWrite w =
                VersionedWrite.of(
                        "T",
                        Map.of("PK", AttributeValue.fromS("p")),
                        Map.of("a", AttributeValue.fromBool(true)),
                        1);
        byte[] bytes = serializer.serialize(state(w));
        // the BOOL tag (4) is followed by the boolean as the last bytes before version+flag
        int tagOffset = bytes.length - 8 - 1 - 1 - 1;
        assertThat(bytes[tagOffset]).isEqualTo((byte) 4);
        bytes[tagOffset] = 77;

        assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion(), bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown attribute value tag 77");
    }
}
