package io.streamledger.model.change;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes {@link AttributeValue}s in DynamoDB's JSON wire form ({@code {"S":"x"}}, {@code
 * {"N":"10.50"}}, …), the form of Streams images, Kinesis change records and outbox payloads. Every
 * error names its JSON path.
 */
public final class AttributeValueJson {
    /** Nesting limit for L/M values (DynamoDB allows 32 levels). */
    public static final int MAX_DEPTH = 32;

    private AttributeValueJson() {}

    /** Reads an item / image: an object of attribute name → typed value. */
    public static Map<String, AttributeValue> readItem(JsonNode node, String path) {
        return readItem(node, path, 0);
    }

    private static Map<String, AttributeValue> readItem(JsonNode node, String path, int depth) {
        JsonFields.requireObject(node, path);
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().isEmpty()) {
                throw new ChangeRecordParseException(path, "attribute name is empty");
            }
            item.put(e.getKey(), read(e.getValue(), JsonFields.path(path, e.getKey()), depth));
        }
        return AttributeValue.ordered(item);
    }

    /** Reads one typed value: an object with exactly one type descriptor. */
    public static AttributeValue read(JsonNode node, String path) {
        return read(node, path, 0);
    }

    private static AttributeValue read(JsonNode node, String path, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ChangeRecordParseException(path, "nested deeper than " + MAX_DEPTH);
        }
        JsonFields.requireObject(node, path);
        if (node.size() != 1) {
            throw new ChangeRecordParseException(
                    path,
                    "expected exactly one type descriptor (S, N, B, BOOL, NULL, L, M, SS, NS, BS),"
                            + " got "
                            + node.size()
                            + " fields");
        }
        Map.Entry<String, JsonNode> e = node.fields().next();
        String type = e.getKey();
        JsonNode v = e.getValue();
        String p = JsonFields.path(path, type);
        try {
            return switch (type) {
                case "S" -> AttributeValue.s(text(v, p));
                case "N" -> AttributeValue.n(text(v, p));
                case "B" -> AttributeValue.B.base64(text(v, p));
                case "BOOL" -> {
                    if (!v.isBoolean()) {
                        throw new ChangeRecordParseException(p, "expected a boolean");
                    }
                    yield AttributeValue.bool(v.booleanValue());
                }
                case "NULL" -> {
                    if (!v.isBoolean() || !v.booleanValue()) {
                        throw new ChangeRecordParseException(p, "expected true");
                    }
                    yield AttributeValue.nul();
                }
                case "L" -> {
                    List<AttributeValue> list = new ArrayList<>();
                    int i = 0;
                    for (JsonNode element : array(v, p)) {
                        list.add(read(element, p + "[" + i++ + "]", depth + 1));
                    }
                    yield AttributeValue.l(list);
                }
                case "M" -> AttributeValue.m(readItem(v, p, depth + 1));
                case "SS" -> new AttributeValue.SS(texts(v, p));
                case "NS" -> new AttributeValue.NS(texts(v, p));
                case "BS" -> {
                    List<AttributeValue.B> list = new ArrayList<>();
                    for (String s : texts(v, p)) {
                        list.add(AttributeValue.B.base64(s));
                    }
                    yield new AttributeValue.BS(list);
                }
                default ->
                        throw new ChangeRecordParseException(
                                path, "unknown attribute type descriptor '" + type + "'");
            };
        } catch (ChangeRecordParseException ex) {
            throw ex;
        } catch (IllegalArgumentException ex) {
            // number grammar (AmountException), base64, empty/duplicate sets
            throw new ChangeRecordParseException(p, ex.getMessage(), ex);
        }
    }

    private static String text(JsonNode v, String path) {
        if (!v.isTextual()) {
            throw new ChangeRecordParseException(path, "expected a string, got " + v.getNodeType());
        }
        return v.textValue();
    }

    private static ArrayNode array(JsonNode v, String path) {
        if (!v.isArray()) {
            throw new ChangeRecordParseException(path, "expected an array, got " + v.getNodeType());
        }
        return (ArrayNode) v;
    }

    private static List<String> texts(JsonNode v, String path) {
        List<String> out = new ArrayList<>();
        int i = 0;
        for (JsonNode element : array(v, path)) {
            out.add(text(element, path + "[" + i++ + "]"));
        }
        return out;
    }

    /** Writes an item / image in wire form, preserving attribute order. */
    public static ObjectNode writeItem(Map<String, AttributeValue> item) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        item.forEach((k, v) -> node.set(k, write(v)));
        return node;
    }

    /** Writes one typed value in wire form. */
    public static ObjectNode write(AttributeValue value) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (value instanceof AttributeValue.S s) {
            node.put("S", s.value());
        } else if (value instanceof AttributeValue.N n) {
            node.put("N", n.text());
        } else if (value instanceof AttributeValue.B b) {
            node.put("B", b.toBase64());
        } else if (value instanceof AttributeValue.Bool b) {
            node.put("BOOL", b.value());
        } else if (value instanceof AttributeValue.Null) {
            node.put("NULL", true);
        } else if (value instanceof AttributeValue.L l) {
            ArrayNode a = node.putArray("L");
            l.values().forEach(v -> a.add(write(v)));
        } else if (value instanceof AttributeValue.M m) {
            node.set("M", writeItem(m.values()));
        } else if (value instanceof AttributeValue.SS ss) {
            ArrayNode a = node.putArray("SS");
            ss.values().forEach(a::add);
        } else if (value instanceof AttributeValue.NS ns) {
            ArrayNode a = node.putArray("NS");
            ns.values().forEach(a::add);
        } else if (value instanceof AttributeValue.BS bs) {
            ArrayNode a = node.putArray("BS");
            bs.values().forEach(b -> a.add(b.toBase64()));
        } else {
            throw new IllegalArgumentException("null attribute value");
        }
        return node;
    }
}
