package io.streamledger.model.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ChangeRecord is immutable and structurally valid whoever builds it. */
class ChangeRecordTest {
    private static final Instant T = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void copiesItsMapsAndExposesThemReadOnly() {
        Map<String, AttributeValue> keys = new HashMap<>();
        keys.put("PK", AttributeValue.s("OUTBOX#e"));
        keys.put("SK", AttributeValue.s("EVENT"));
        Map<String, AttributeValue> image = new HashMap<>(keys);
        ChangeRecord r =
                new ChangeRecord(
                        "1",
                        Operation.INSERT,
                        "Context",
                        keys,
                        null,
                        image,
                        "1",
                        T,
                        null,
                        null,
                        Transport.DYNAMODB_STREAMS);
        keys.put("X", AttributeValue.s("later"));
        image.clear();
        assertThat(r.keys()).hasSize(2);
        assertThat(r.newImage()).hasSize(2);
        assertThatThrownBy(() -> r.keys().put("Y", AttributeValue.nul()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(r.stringKey("PK")).isEqualTo("OUTBOX#e");
        assertThat(r.stringKey("missing")).isNull();
    }

    @Test
    void rejectsImagesThatContradictTheOperation() {
        Map<String, AttributeValue> keys = Map.of("PK", AttributeValue.s("x"));
        assertThatThrownBy(
                        () ->
                                new ChangeRecord(
                                        "1",
                                        Operation.INSERT,
                                        "T",
                                        keys,
                                        keys,
                                        null,
                                        null,
                                        T,
                                        null,
                                        null,
                                        Transport.KINESIS))
                .hasMessageContaining("INSERT");
        assertThatThrownBy(
                        () ->
                                new ChangeRecord(
                                        "1",
                                        Operation.REMOVE,
                                        "T",
                                        keys,
                                        null,
                                        keys,
                                        null,
                                        T,
                                        null,
                                        null,
                                        Transport.KINESIS))
                .hasMessageContaining("REMOVE");
        assertThatThrownBy(
                        () ->
                                new ChangeRecord(
                                        "1",
                                        Operation.MODIFY,
                                        "T",
                                        Map.of(),
                                        null,
                                        null,
                                        null,
                                        T,
                                        null,
                                        null,
                                        Transport.KINESIS))
                .hasMessageContaining("keys");
    }

    @Test
    void ttlDeleteNeedsTheServicePrincipal() {
        Map<String, AttributeValue> keys = Map.of("PK", AttributeValue.s("x"));
        ChangeRecord user =
                new ChangeRecord(
                        "1",
                        Operation.REMOVE,
                        "T",
                        keys,
                        keys,
                        null,
                        null,
                        T,
                        null,
                        new UserIdentity("someone", "Service"),
                        Transport.KINESIS);
        assertThat(user.isTtlDelete()).isFalse();
    }
}
