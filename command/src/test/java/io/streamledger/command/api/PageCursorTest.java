package io.streamledger.command.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The opaque cursor round-trips and is refused outside its own partition or shape. */
class PageCursorTest {

    private static final Set<String> KEYS = Set.of("PK", "SK", "GSI1PK", "GSI1SK");

    private static final Map<String, AttributeValue> LEK =
            Map.of(
                    "PK", AttributeValue.fromS("TEN#t#ORDER#o1"),
                    "SK", AttributeValue.fromS("META"),
                    "GSI1PK", AttributeValue.fromS("TEN#t#ACCT#a"),
                    "GSI1SK", AttributeValue.fromS("ORD#2026-11-30T10:00:00.000Z#o1"));

    @Test
    void roundTrips() {
        String c = PageCursor.encode(LEK);
        assertThat(c).doesNotContain("TEN#");
        assertThat(PageCursor.decode(c, KEYS, "GSI1PK", "TEN#t#ACCT#a")).isEqualTo(LEK);
        assertThat(PageCursor.decode(null, KEYS, "GSI1PK", "x")).isNull();
    }

    @Test
    void refusesOtherPartitionsAndForgedShapes() {
        String c = PageCursor.encode(LEK);
        assertThatThrownBy(() -> PageCursor.decode(c, KEYS, "GSI1PK", "TEN#u#ACCT#a"))
                .hasMessageContaining("different query");
        assertThatThrownBy(() -> PageCursor.decode(c, Set.of("PK", "SK"), "PK", "x"))
                .hasMessageContaining("key shape");
        assertThatThrownBy(() -> PageCursor.decode("%%%", KEYS, "GSI1PK", "x"))
                .isInstanceOf(ApiException.class);
    }
}
