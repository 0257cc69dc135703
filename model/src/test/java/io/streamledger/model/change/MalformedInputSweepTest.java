package io.streamledger.model.change;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Sweeps every field of realistic sample documents: removed, or replaced by a value of each JSON
 * type. Each variant must either parse or fail with a ChangeRecordParseException — never a
 * NullPointerException or any other exception type.
 */
class MalformedInputSweepTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<JsonNode> REPLACEMENTS =
            List.of(
                    F.nullNode(),
                    F.numberNode(1),
                    F.numberNode(-1L),
                    F.numberNode(new java.math.BigDecimal("1.5")),
                    F.textNode(""),
                    F.textNode("x"),
                    F.booleanNode(true),
                    F.arrayNode(),
                    F.objectNode());

    private static int sweep(String sample, Consumer<JsonNode> parser) {
        ObjectNode original = (ObjectNode) JsonFields.parse(sample);
        List<List<String>> paths = new ArrayList<>();
        collect(original, new ArrayList<>(), paths);
        int variants = 0;
        for (List<String> path : paths) {
            for (int r = -1; r < REPLACEMENTS.size(); r++) {
                ObjectNode copy = original.deepCopy();
                ObjectNode parent = (ObjectNode) navigate(copy, path.subList(0, path.size() - 1));
                String field = path.get(path.size() - 1);
                if (r < 0) {
                    parent.remove(field);
                } else {
                    parent.set(field, REPLACEMENTS.get(r).deepCopy());
                }
                variants++;
                try {
                    parser.accept(copy);
                } catch (ChangeRecordParseException expected) {
                    assertThat(expected.path()).startsWith("$");
                } catch (RuntimeException other) {
                    throw new AssertionError(
                            "variant " + path + " / " + r + " threw " + other, other);
                }
            }
        }
        return variants;
    }

    /** Every object field path below {@code node} (shared with the streaming reader's sweep). */
    static void collect(JsonNode node, List<String> prefix, List<List<String>> out) {
        if (!node.isObject()) {
            return;
        }
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            List<String> path = new ArrayList<>(prefix);
            path.add(name);
            out.add(path);
            collect(node.get(name), path, out);
        }
    }

    static JsonNode navigate(JsonNode root, List<String> path) {
        JsonNode node = root;
        for (String p : path) {
            node = node.get(p);
        }
        return node;
    }

    @Test
    void streamsRecordsNeverFailWithAnUntypedException() {
        int n =
                sweep(
                        DynamoDbStreamsRecordParserTest.MODIFY,
                        json -> DynamoDbStreamsRecordParser.parse(json, "Orders", "s-1"));
        n +=
                sweep(
                        DynamoDbStreamsRecordParserTest.TTL_REMOVE,
                        json -> DynamoDbStreamsRecordParser.parse(json, "Idempotency", null));
        assertThat(n).isGreaterThan(300);
    }

    @Test
    void kinesisRecordsNeverFailWithAnUntypedException() {
        int n =
                sweep(
                        KinesisDynamoDbRecordParserTest.INSERT,
                        json -> KinesisDynamoDbRecordParser.parse(json, null));
        assertThat(n).isGreaterThan(150);
    }

    @Test
    void outboxEventsNeverFailWithAnUntypedException() {
        int n =
                sweep(
                        OutboxEventTest.sample().toJson(),
                        json -> OutboxEvent.fromJson(json.toString()));
        assertThat(n).isGreaterThan(100);
    }
}
