package io.streamledger.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** Item size rules ("DynamoDB item sizes and formats") and the unit math of AMP01–AMP18. */
class ItemSizeAndCapacityTest {
    private static final ObjectMapper M = new ObjectMapper();

    private static ObjectNode item(String json) throws Exception {
        return (ObjectNode) M.readTree(json);
    }

    @Test
    void scalarSizes() throws Exception {
        assertThat(ItemSize.of(item("{\"name\":{\"S\":\"héllo\"}}"))).isEqualTo(4 + 6);
        // 12345 = 5 significant digits -> 3 + 1 bytes
        assertThat(ItemSize.of(item("{\"n\":{\"N\":\"12345\"}}"))).isEqualTo(1 + 4);
        // leading and trailing zeros are trimmed: 0.00120 -> "12"
        assertThat(ItemSize.numberSize("0.0012")).isEqualTo(2);
        assertThat(ItemSize.numberSize("1200")).isEqualTo(2);
        assertThat(ItemSize.of(item("{\"b\":{\"B\":\"AAEC\"}}"))).isEqualTo(1 + 3);
        assertThat(ItemSize.of(item("{\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true}}"))).isEqualTo(4);
    }

    @Test
    void collectionSizes() throws Exception {
        // list: 3 + per element (value + 1)
        assertThat(ItemSize.of(item("{\"l\":{\"L\":[{\"S\":\"ab\"},{\"N\":\"1\"}]}}")))
                .isEqualTo(1 + 3 + (2 + 1) + (2 + 1));
        // map: 3 + per entry (name + value + 1)
        assertThat(ItemSize.of(item("{\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}}}")))
                .isEqualTo(1 + 3 + (1 + 1 + 1));
        assertThat(ItemSize.of(item("{\"m\":{\"M\":{}}}"))).isEqualTo(1 + 3);
        assertThat(ItemSize.of(item("{\"ss\":{\"SS\":[\"a\",\"bc\"]}}"))).isEqualTo(2 + 3);
    }

    @Test
    void unitMath() {
        assertThat(Capacity.writeUnits(0)).isEqualTo(1);
        assertThat(Capacity.writeUnits(1024)).isEqualTo(1);
        assertThat(Capacity.writeUnits(1025)).isEqualTo(2);
        assertThat(Capacity.writeUnits(1638)).isEqualTo(2); // 1.6 KiB outbox event
        assertThat(Capacity.readUnits(4096, true)).isEqualTo(1);
        assertThat(Capacity.readUnits(4097, true)).isEqualTo(2);
        assertThat(Capacity.readUnits(4097, false)).isEqualTo(1);
        assertThat(Capacity.readUnits(10, false)).isEqualTo(0.5);
    }

    @Test
    void capacityJsonSplitsTableAndIndexes() {
        Capacity c = new Capacity();
        c.tableWrite("Orders", 6);
        c.indexWrite("Orders", "GSI1", true, 1);
        c.indexWrite("Orders", "GSI2", true, 1);
        ObjectNode total = c.toJson("Orders", Capacity.Mode.TOTAL);
        assertThat(total.get("CapacityUnits").asDouble()).isEqualTo(8.0);
        assertThat(total.has("Table")).isFalse();
        ObjectNode indexes = c.toJson("Orders", Capacity.Mode.INDEXES);
        assertThat(indexes.get("Table").get("CapacityUnits").asDouble()).isEqualTo(6.0);
        assertThat(
                        indexes.get("GlobalSecondaryIndexes")
                                .get("GSI2")
                                .get("CapacityUnits")
                                .asDouble())
                .isEqualTo(1.0);
        assertThat(c.toJson("Orders", Capacity.Mode.NONE)).isNull();
    }

    @Test
    void keyOrderingFollowsDynamoDb() {
        assertThat(KeyValue.of("a").compareTo(KeyValue.of("b"))).isNegative();
        // UTF-8 byte order, not UTF-16: U+FFFD sorts before a supplementary character
        assertThat(KeyValue.of("\uFFFD").compareTo(KeyValue.of("\uD83D\uDE00"))).isNegative();
        assertThat(
                        KeyValue.of(new java.math.BigDecimal("10"))
                                .compareTo(KeyValue.of(new java.math.BigDecimal("9"))))
                .isPositive();
        assertThat(KeyValue.of("h", KeyValue.MIN).compareTo(KeyValue.of("h", "a"))).isNegative();
        assertThat(KeyValue.of("h", "a").compareTo(KeyValue.of("h", "a", KeyValue.MAX)))
                .isNegative();
        assertThat(
                        KeyValue.of(new KeyValue.Bytes(new byte[] {(byte) 0xff}))
                                .compareTo(KeyValue.of(new KeyValue.Bytes(new byte[] {1}))))
                .isPositive();
    }
}
