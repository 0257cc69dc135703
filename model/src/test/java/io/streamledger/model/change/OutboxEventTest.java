package io.streamledger.model.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** AP16 outbox envelope: JSON and Context IDX16 item forms. */
class OutboxEventTest {

    static OutboxEvent sample() {
        Map<String, AttributeValue> payload = new LinkedHashMap<>();
        payload.put("orderId", AttributeValue.s("o-1"));
        payload.put("quantity", AttributeValue.n("100.000000"));
        payload.put("price", AttributeValue.n("187.25"));
        payload.put("currency", AttributeValue.s("USD"));
        return new OutboxEvent(
                "evt-0001",
                "Order",
                "o-1",
                1,
                "OrderAccepted",
                1,
                Instant.parse("2026-11-30T10:00:00.123Z"),
                "trace-abc",
                null,
                payload);
    }

    @Test
    void jsonRoundTripKeepsExactNumbersAndOrder() {
        OutboxEvent e = sample();
        String json = e.toJson();
        assertThat(json)
                .contains("\"quantity\":{\"N\":\"100.000000\"}")
                .contains("\"occurredAt\":\"2026-11-30T10:00:00.123Z\"")
                .contains("\"causationId\":null");
        OutboxEvent back = OutboxEvent.fromJson(json);
        assertThat(back).isEqualTo(e);
        assertThat(back.payload().keySet())
                .containsExactly("orderId", "quantity", "price", "currency");
    }

    @Test
    void itemRoundTripUsesTheIdx16Key() {
        Map<String, AttributeValue> item = OutboxEventCodec.toItem(sample());
        assertThat(item.get(Attr.PK)).isEqualTo(AttributeValue.s("OUTBOX#evt-0001"));
        assertThat(item.get(Attr.SK)).isEqualTo(AttributeValue.s("EVENT"));
        assertThat(OutboxEvent.fromContextItem(item)).isEqualTo(sample());
    }

    @Test
    void readsTheEnvelopeFromAStreamsNewImage() {
        String record =
                """
                {"eventID":"1","eventName":"INSERT","eventVersion":"1.1","eventSource":"aws:dynamodb",
                 "dynamodb":{"ApproximateCreationDateTime":1764496800,
                   "Keys":{"PK":{"S":"OUTBOX#evt-9"},"SK":{"S":"EVENT"}},
                   "NewImage":{"PK":{"S":"OUTBOX#evt-9"},"SK":{"S":"EVENT"},
                     "eventId":{"S":"evt-9"},"aggregateType":{"S":"Trade"},
                     "aggregateId":{"S":"f-1"},"aggregateVersion":{"N":"4"},
                     "eventType":{"S":"TradeFilled"},"schemaVersion":{"N":"2"},
                     "occurredAt":{"S":"2026-11-30T10:00:00.000Z"},"traceId":{"S":"tr"},
                     "causationId":{"S":"evt-8"},"state":{"S":"READY"},
                     "readyPk":{"S":"SERVICE#orders#READY#4"},
                     "readySk":{"S":"DUE#2026-11-30T10:00:00.000Z#evt-9"},
                     "payload":{"M":{"amount":{"N":"10.50"}}}},
                   "SequenceNumber":"300000000000000000001","SizeBytes":400,
                   "StreamViewType":"NEW_AND_OLD_IMAGES"}}
                """;
        ChangeRecord r = DynamoDbStreamsRecordParser.parse(record, "Context", null);
        OutboxEvent e = OutboxEvent.fromContextItem(r.newImage());
        assertThat(e.eventId()).isEqualTo("evt-9");
        assertThat(e.aggregateVersion()).isEqualTo(4);
        assertThat(e.schemaVersion()).isEqualTo(2);
        assertThat(e.causationId()).isEqualTo("evt-8");
        assertThat(e.payload()).containsEntry("amount", AttributeValue.n("10.50"));
    }

    private static void assertItemRejected(
            Consumer<Map<String, AttributeValue>> change, String path, String message) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(OutboxEventCodec.toItem(sample()));
        change.accept(item);
        assertThatThrownBy(() -> OutboxEvent.fromContextItem(item))
                .isInstanceOfSatisfying(
                        ChangeRecordParseException.class,
                        e -> {
                            assertThat(e.path()).isEqualTo(path);
                            assertThat(e.getMessage()).contains(message);
                        });
    }

    @Test
    void malformedItemsNameTheAttribute() {
        assertItemRejected(i -> i.remove(Attr.PK), "item.PK", "is missing");
        assertItemRejected(i -> i.put(Attr.PK, AttributeValue.s("ORDER#x")), "item.PK", "IDX16");
        assertItemRejected(
                i -> i.put(Attr.EVENT_ID, AttributeValue.s("other")), "item.eventId", "differs");
        assertItemRejected(
                i -> i.put(Attr.AGGREGATE_VERSION, AttributeValue.s("1")),
                "item.aggregateVersion",
                "expected N");
        assertItemRejected(
                i -> i.put(Attr.AGGREGATE_VERSION, AttributeValue.n("1.5")),
                "item.aggregateVersion",
                "whole number");
        assertItemRejected(
                i -> i.put(Attr.AGGREGATE_VERSION, AttributeValue.n("0")),
                "item.aggregateVersion",
                ">= 1");
        assertItemRejected(
                i -> i.put(Attr.SCHEMA_VERSION, AttributeValue.n("3000000000")),
                "item.schemaVersion",
                "2^31-1");
        assertItemRejected(
                i -> i.put(Attr.OCCURRED_AT, AttributeValue.s("today")),
                "item.occurredAt",
                "ISO-8601");
        assertItemRejected(i -> i.remove(Attr.PAYLOAD), "item.payload", "is missing");
        assertItemRejected(
                i -> i.put(Attr.PAYLOAD, AttributeValue.s("{}")), "item.payload", "expected M");
        assertItemRejected(i -> i.remove(Attr.TRACE_ID), "item.traceId", "is missing");
        assertItemRejected(
                i -> i.put(Attr.EVENT_TYPE, AttributeValue.s("")), "item.eventType", "is empty");
        assertThatThrownBy(() -> OutboxEvent.fromContextItem(null))
                .isInstanceOf(ChangeRecordParseException.class);
    }

    private static void assertJsonRejected(
            Consumer<ObjectNode> change, String path, String message) {
        ObjectNode root = (ObjectNode) JsonFields.parse(sample().toJson());
        change.accept(root);
        assertThatThrownBy(() -> OutboxEvent.fromJson(root.toString()))
                .isInstanceOfSatisfying(
                        ChangeRecordParseException.class,
                        e -> {
                            assertThat(e.path()).isEqualTo(path);
                            assertThat(e.getMessage()).contains(message);
                        });
    }

    @Test
    void malformedJsonNamesTheField() {
        assertJsonRejected(r -> r.remove("eventId"), "$.eventId", "is missing");
        assertJsonRejected(r -> r.put("eventId", 3), "$.eventId", "expected a string");
        assertJsonRejected(
                r -> r.put("aggregateVersion", "1"), "$.aggregateVersion", "expected a number");
        assertJsonRejected(
                r -> r.put("aggregateVersion", 1.5), "$.aggregateVersion", "whole number");
        assertJsonRejected(r -> r.put("schemaVersion", 0), "$.schemaVersion", "must be 1");
        assertJsonRejected(r -> r.put("occurredAt", "noon"), "$.occurredAt", "ISO-8601");
        assertJsonRejected(r -> r.put("causationId", 5), "$.causationId", "expected a string");
        assertJsonRejected(r -> r.put("causationId", ""), "$.causationId", "is empty");
        assertJsonRejected(r -> r.remove("payload"), "$.payload", "is missing");
        assertJsonRejected(r -> r.put("payload", "x"), "$.payload", "expected an object");
        assertJsonRejected(
                r -> ((ObjectNode) r.get("payload")).putObject("bad").put("N", "Infinity"),
                "$.payload.bad.N",
                "NOT_FINITE");
        assertThatThrownBy(() -> OutboxEvent.fromJson("nope"))
                .isInstanceOfSatisfying(
                        ChangeRecordParseException.class, e -> assertThat(e.path()).isEqualTo("$"));
    }
}
