package io.streamledger.model.change;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The semantic outbox envelope written in the same transaction as the state it announces (AP16,
 * CS01, CS04; seed "DynamoDB Streams and semantic outbox events"): stable event id, aggregate id
 * and version, event type and schema version, occurred time, trace/causation ids and the consumer
 * contract payload. The payload is an ordered map of exact {@link AttributeValue}s so amounts stay
 * exact from the Context item to the consumer.
 *
 * @param eventId stable business event id (inbox identity, AP09)
 * @param aggregateType e.g. {@code Order}
 * @param aggregateId e.g. the order id
 * @param aggregateVersion aggregate version this event produced (1 or more; CS07 ordering)
 * @param eventType e.g. {@code OrderAccepted}
 * @param schemaVersion payload schema version (1 or more)
 * @param occurredAt business time, millisecond precision
 * @param traceId distributed trace id
 * @param causationId the event/command that caused this one, if any
 * @param payload ordered payload attributes
 */
public record OutboxEvent(
        String eventId,
        String aggregateType,
        String aggregateId,
        long aggregateVersion,
        String eventType,
        int schemaVersion,
        Instant occurredAt,
        String traceId,
        @Nullable String causationId,
        Map<String, AttributeValue> payload) {
    public OutboxEvent {
        requireText("eventId", eventId);
        requireText("aggregateType", aggregateType);
        requireText("aggregateId", aggregateId);
        requireText("eventType", eventType);
        requireText("traceId", traceId);
        if (causationId != null && causationId.isEmpty()) {
            throw new IllegalArgumentException("causationId is empty (use null for none)");
        }
        if (aggregateVersion < 1) {
            throw new IllegalArgumentException("aggregateVersion must be >= 1");
        }
        if (schemaVersion < 1) {
            throw new IllegalArgumentException("schemaVersion must be >= 1");
        }
        occurredAt =
                Objects.requireNonNull(occurredAt, "occurredAt").truncatedTo(ChronoUnit.MILLIS);
        payload = AttributeValue.ordered(payload);
    }

    private static void requireText(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(name + " is missing");
        }
    }

    /** Reads the envelope from the Context table's IDX16 item image. */
    public static OutboxEvent fromContextItem(Map<String, AttributeValue> item) {
        return OutboxEventCodec.fromItem(item, "item");
    }

    /** The envelope as JSON (payload in DynamoDB wire form, numbers exact). */
    public String toJson() {
        return OutboxEventCodec.toJson(this);
    }

    /** Parses the JSON form written by {@link #toJson()}. */
    public static OutboxEvent fromJson(String json) {
        return OutboxEventCodec.fromJson(json);
    }
}
