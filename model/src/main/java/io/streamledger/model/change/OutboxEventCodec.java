package io.streamledger.model.change;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.model.keys.KeyFormatException;
import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.keys.OutboxKey;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * JSON and Context-item (IDX16, AP16) forms of {@link OutboxEvent}. JSON:
 *
 * <pre>{@code
 * {"eventId":"…","aggregateType":"Order","aggregateId":"o-1","aggregateVersion":3,
 *  "eventType":"OrderAccepted","schemaVersion":1,"occurredAt":"2026-11-30T10:00:00.000Z",
 *  "traceId":"…","causationId":null,"payload":{"amount":{"N":"10.50"}}}
 * }</pre>
 *
 * The item form uses the attribute names of {@link Attr} plus {@code PK = OUTBOX#eventId}, {@code
 * SK = EVENT}; relay lifecycle attributes (state, lease, READY keys) are ignored by the reader.
 */
public final class OutboxEventCodec {
    private OutboxEventCodec() {}

    public static String toJson(OutboxEvent e) {
        ObjectNode node = JsonFields.MAPPER.createObjectNode();
        node.put(Attr.EVENT_ID, e.eventId());
        node.put(Attr.AGGREGATE_TYPE, e.aggregateType());
        node.put(Attr.AGGREGATE_ID, e.aggregateId());
        node.put(Attr.AGGREGATE_VERSION, e.aggregateVersion());
        node.put(Attr.EVENT_TYPE, e.eventType());
        node.put(Attr.SCHEMA_VERSION, e.schemaVersion());
        node.put(Attr.OCCURRED_AT, KeyTime.format(e.occurredAt()));
        node.put(Attr.TRACE_ID, e.traceId());
        if (e.causationId() == null) {
            node.putNull(Attr.CAUSATION_ID);
        } else {
            node.put(Attr.CAUSATION_ID, e.causationId());
        }
        node.set(Attr.PAYLOAD, AttributeValueJson.writeItem(e.payload()));
        try {
            return JsonFields.MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException("cannot write outbox event JSON", ex);
        }
    }

    /**
     * Parses the JSON envelope.
     *
     * @throws ChangeRecordParseException naming the missing or mistyped field
     */
    public static OutboxEvent fromJson(String json) {
        JsonNode root = JsonFields.requireObject(JsonFields.parse(json), "$");
        String eventId = JsonFields.requireText(root, Attr.EVENT_ID, "$");
        String aggregateType = JsonFields.requireText(root, Attr.AGGREGATE_TYPE, "$");
        String aggregateId = JsonFields.requireText(root, Attr.AGGREGATE_ID, "$");
        long aggregateVersion = JsonFields.requireLong(root, Attr.AGGREGATE_VERSION, "$");
        String eventType = JsonFields.requireText(root, Attr.EVENT_TYPE, "$");
        long schemaVersion = JsonFields.requireLong(root, Attr.SCHEMA_VERSION, "$");
        Instant occurredAt =
                instant(
                        JsonFields.requireText(root, Attr.OCCURRED_AT, "$"),
                        "$." + Attr.OCCURRED_AT);
        String traceId = JsonFields.requireText(root, Attr.TRACE_ID, "$");
        String causationId = JsonFields.optionalText(root, Attr.CAUSATION_ID, "$");
        Map<String, AttributeValue> payload =
                AttributeValueJson.readItem(
                        JsonFields.requireField(root, Attr.PAYLOAD, "$"), "$." + Attr.PAYLOAD);
        return build(
                "$",
                eventId,
                aggregateType,
                aggregateId,
                aggregateVersion,
                eventType,
                schemaVersion,
                occurredAt,
                traceId,
                causationId,
                payload);
    }

    /** The Context IDX16 item of an event (PK/SK plus envelope attributes). */
    public static Map<String, AttributeValue> toItem(OutboxEvent e) {
        OutboxKey key = new OutboxKey(e.eventId());
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(Attr.PK, AttributeValue.s(key.pk()));
        item.put(Attr.SK, AttributeValue.s(key.sk()));
        item.put(Attr.EVENT_ID, AttributeValue.s(e.eventId()));
        item.put(Attr.AGGREGATE_TYPE, AttributeValue.s(e.aggregateType()));
        item.put(Attr.AGGREGATE_ID, AttributeValue.s(e.aggregateId()));
        item.put(Attr.AGGREGATE_VERSION, AttributeValue.n(e.aggregateVersion()));
        item.put(Attr.EVENT_TYPE, AttributeValue.s(e.eventType()));
        item.put(Attr.SCHEMA_VERSION, AttributeValue.n(e.schemaVersion()));
        item.put(Attr.OCCURRED_AT, AttributeValue.s(KeyTime.format(e.occurredAt())));
        item.put(Attr.TRACE_ID, AttributeValue.s(e.traceId()));
        if (e.causationId() != null) {
            item.put(Attr.CAUSATION_ID, AttributeValue.s(e.causationId()));
        }
        item.put(Attr.PAYLOAD, AttributeValue.m(e.payload()));
        return AttributeValue.ordered(item);
    }

    /**
     * Reads an event from a Context IDX16 item image (e.g. a Streams NewImage).
     *
     * @param path path prefix for errors, e.g. {@code $.dynamodb.NewImage}
     * @throws ChangeRecordParseException naming the missing or mistyped attribute
     */
    public static OutboxEvent fromItem(Map<String, AttributeValue> item, String path) {
        if (item == null) {
            throw new ChangeRecordParseException(path, "item is missing");
        }
        String pk = string(item, Attr.PK, path);
        String sk = string(item, Attr.SK, path);
        OutboxKey key;
        try {
            key = OutboxKey.parse(pk, sk);
        } catch (KeyFormatException e) {
            throw new ChangeRecordParseException(
                    path + "." + Attr.PK, "not an IDX16 outbox item: " + e.getMessage(), e);
        }
        String eventId = string(item, Attr.EVENT_ID, path);
        if (!eventId.equals(key.eventId())) {
            throw new ChangeRecordParseException(
                    path + "." + Attr.EVENT_ID,
                    "'" + eventId + "' differs from the key's eventId '" + key.eventId() + "'");
        }
        AttributeValue payload = item.get(Attr.PAYLOAD);
        if (!(payload instanceof AttributeValue.M m)) {
            throw new ChangeRecordParseException(
                    path + "." + Attr.PAYLOAD,
                    payload == null ? "is missing" : "expected M, got " + payload.type());
        }
        AttributeValue causation = item.get(Attr.CAUSATION_ID);
        String causationId =
                causation == null || causation instanceof AttributeValue.Null
                        ? null
                        : string(item, Attr.CAUSATION_ID, path);
        return build(
                path,
                eventId,
                string(item, Attr.AGGREGATE_TYPE, path),
                string(item, Attr.AGGREGATE_ID, path),
                whole(item, Attr.AGGREGATE_VERSION, path),
                string(item, Attr.EVENT_TYPE, path),
                whole(item, Attr.SCHEMA_VERSION, path),
                instant(string(item, Attr.OCCURRED_AT, path), path + "." + Attr.OCCURRED_AT),
                string(item, Attr.TRACE_ID, path),
                causationId,
                m.values());
    }

    private static OutboxEvent build(
            String path,
            String eventId,
            String aggregateType,
            String aggregateId,
            long aggregateVersion,
            String eventType,
            long schemaVersion,
            Instant occurredAt,
            String traceId,
            @Nullable String causationId,
            Map<String, AttributeValue> payload) {
        if (aggregateVersion < 1) {
            throw new ChangeRecordParseException(
                    path + "." + Attr.AGGREGATE_VERSION, "must be >= 1, got " + aggregateVersion);
        }
        if (schemaVersion < 1 || schemaVersion > Integer.MAX_VALUE) {
            throw new ChangeRecordParseException(
                    path + "." + Attr.SCHEMA_VERSION, "must be 1..2^31-1, got " + schemaVersion);
        }
        if (causationId != null && causationId.isEmpty()) {
            throw new ChangeRecordParseException(path + "." + Attr.CAUSATION_ID, "is empty");
        }
        return new OutboxEvent(
                eventId,
                aggregateType,
                aggregateId,
                aggregateVersion,
                eventType,
                (int) schemaVersion,
                occurredAt,
                traceId,
                causationId,
                payload);
    }

    private static String string(Map<String, AttributeValue> item, String attr, String path) {
        AttributeValue v = item.get(attr);
        if (v == null) {
            throw new ChangeRecordParseException(path + "." + attr, "is missing");
        }
        if (!(v instanceof AttributeValue.S s)) {
            throw new ChangeRecordParseException(path + "." + attr, "expected S, got " + v.type());
        }
        if (s.value().isEmpty()) {
            throw new ChangeRecordParseException(path + "." + attr, "is empty");
        }
        return s.value();
    }

    private static long whole(Map<String, AttributeValue> item, String attr, String path) {
        AttributeValue v = item.get(attr);
        if (v == null) {
            throw new ChangeRecordParseException(path + "." + attr, "is missing");
        }
        if (!(v instanceof AttributeValue.N n)) {
            throw new ChangeRecordParseException(path + "." + attr, "expected N, got " + v.type());
        }
        BigDecimal value = n.bigDecimal();
        try {
            return value.longValueExact();
        } catch (ArithmeticException e) {
            throw new ChangeRecordParseException(
                    path + "." + attr, "expected a whole number, got " + n.text());
        }
    }

    private static Instant instant(String text, String path) {
        try {
            return Instant.parse(text);
        } catch (DateTimeException e) {
            throw new ChangeRecordParseException(path, "'" + text + "' is not an ISO-8601 instant");
        }
    }
}
