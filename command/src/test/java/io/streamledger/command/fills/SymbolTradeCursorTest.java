package io.streamledger.command.fills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.Schema;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** AP06 compound cursor: one LEK per partition, bound to tenant/symbol/from/shard version. */
class SymbolTradeCursorTest {

    static final List<Integer> SHARDS = List.of(-1, 0, 1, 2, 3);
    static final SymbolTradeCursor.Binding BINDING =
            new SymbolTradeCursor.Binding("t1", "HOT", null, 2);

    static SymbolTradeCursor.State state() {
        Map<String, AttributeValue> e2 = SymbolTradeMergeTest.item(2, 50, "tr-50");
        Map<String, AttributeValue> eU = SymbolTradeMergeTest.item(-1, 60, "tr-60");
        return new SymbolTradeCursor.State(
                List.of(
                        new SymbolTradeMerge.Position(-1, SymbolTradeMerge.key(eU), false),
                        new SymbolTradeMerge.Position(0, null, true),
                        new SymbolTradeMerge.Position(1, null, false),
                        new SymbolTradeMerge.Position(2, SymbolTradeMerge.key(e2), false),
                        new SymbolTradeMerge.Position(3, null, true)),
                SymbolTradeMerge.sk(e2));
    }

    @Test
    void roundTripsEveryPartitionsPosition() {
        String c = SymbolTradeCursor.encode(BINDING, state());
        assertThat(c).doesNotContain("=").doesNotContain("+").doesNotContain("/");
        assertThat(SymbolTradeCursor.decode(c, BINDING, SHARDS)).isEqualTo(state());
    }

    @Test
    void noCursorWhenEveryPartitionIsDoneAndFreshWithoutOne() {
        SymbolTradeCursor.State done =
                new SymbolTradeCursor.State(
                        SHARDS.stream()
                                .map(k -> new SymbolTradeMerge.Position(k, null, true))
                                .toList(),
                        "TRADE#2026-12-01T12:00:00.000Z#x");
        assertThat(SymbolTradeCursor.encode(BINDING, done)).isNull();
        assertThat(SymbolTradeCursor.decode(null, BINDING, SHARDS))
                .isEqualTo(SymbolTradeCursor.fresh(SHARDS));
    }

    @Test
    void aCursorOfAnotherQueryIsRejected() {
        String c = SymbolTradeCursor.encode(BINDING, state());
        rejected(c, new SymbolTradeCursor.Binding("t2", "HOT", null, 2), SHARDS, "different query");
        rejected(
                c, new SymbolTradeCursor.Binding("t1", "COLD", null, 2), SHARDS, "different query");
        rejected(
                c,
                new SymbolTradeCursor.Binding("t1", "HOT", "TRADE#2026-12-01T00:00:00.000Z", 2),
                SHARDS,
                "different query");
        rejected(c, new SymbolTradeCursor.Binding("t1", "HOT", null, 3), SHARDS, "shard version");
        rejected(c, BINDING, List.of(-1, 0, 1, 2, 3, 4, 5), "partitions");
    }

    @Test
    void tamperedCursorsAreRejected() {
        rejected("not base64 !!", BINDING, SHARDS, "not a cursor");
        rejected(
                Base64.getUrlEncoder().encodeToString("[1,2]".getBytes(StandardCharsets.UTF_8)),
                BINDING,
                SHARDS,
                "not a cursor");
        // a LEK moved into another partition (another symbol's key)
        rejected(
                tamper(p -> lek(p, 3).put(Schema.GSI2PK, "TEN#t1#SYM#OTHER#SHARD#2")),
                "different query");
        // a LEK of another tenant's base item
        rejected(tamper(p -> lek(p, 3).put(Schema.PK, "TEN#t2#ORDER#o-1")), "different query");
        // a sort key that is no IDX06 sort key
        rejected(tamper(p -> lek(p, 3).put(Schema.GSI2SK, "ORD#x#y")), "key shape");
        // a partition resuming after what the merge already returned would skip entries
        rejected(
                tamper(p -> lek(p, 0).put(Schema.GSI2SK, "TRADE#2026-12-01T11:00:00.000Z#tr-60")),
                "key shape");
        // shards swapped, done with a LEK, extra attributes
        rejected(tamper(p -> ((ObjectNode) p.get(1)).put("k", 1)), "partitions");
        rejected(tamper(p -> ((ObjectNode) p.get(3)).put("d", true)), "key shape");
        rejected(tamper(p -> lek(p, 3).put("extra", "x")), "key shape");
    }

    static ObjectNode lek(ArrayNode positions, int index) {
        return (ObjectNode) positions.get(index).get("e");
    }

    static String tamper(Consumer<ArrayNode> edit) {
        String c = SymbolTradeCursor.encode(BINDING, state());
        ObjectNode o = (ObjectNode) StrictJson.parseObject(Base64.getUrlDecoder().decode(c));
        edit.accept((ArrayNode) o.get("p"));
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(StrictJson.write(o).getBytes(StandardCharsets.UTF_8));
    }

    static void rejected(String cursor, String why) {
        rejected(cursor, BINDING, SHARDS, why);
    }

    static void rejected(
            String cursor, SymbolTradeCursor.Binding b, List<Integer> shards, String why) {
        assertThatThrownBy(() -> SymbolTradeCursor.decode(cursor, b, shards))
                .isInstanceOfSatisfying(
                        ApiException.class,
                        e -> {
                            assertThat(e.status()).isEqualTo(400);
                            assertThat(e.code()).isEqualTo("INVALID_CURSOR");
                        })
                .hasMessageContaining(why);
    }
}
