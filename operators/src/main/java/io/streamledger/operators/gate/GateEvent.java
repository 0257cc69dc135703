package io.streamledger.operators.gate;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Objects;

/**
 * One versioned business event of one aggregate, the gate's input and applied output (AP09/AP13).
 *
 * <p>A Flink POJO (public no-arg constructor, getters/setters) so that {@link GateState#GATE_EVENT}
 * serializes it with Flink's PojoSerializer, which supports schema evolution; never Kryo. Mappers
 * from the model's {@code ChangeRecord}/{@code OutboxEvent} fill it as follows:
 *
 * <ul>
 *   <li>{@code sourceKey}: the aggregate key the version counts over (e.g. {@code
 *       TEN#t#ACCT#a#AUTH#CASH#USD}); the gate is keyed by it.
 *   <li>{@code version}: the aggregate's version, 1 for its first event; the gate applies {@code
 *       current+1} only.
 *   <li>{@code eventId}: the durable business event id (AP09), not a transport message id.
 *   <li>{@code eventTimeMillis}: when the business fact happened (e.g. fill accepted); drives the
 *       freshness histogram.
 *   <li>{@code ingestTimeMillis}: when the record entered the stream (Streams
 *       ApproximateCreationDateTime / Kinesis arrival); drives the source-lag gauge; 0 if unknown.
 *   <li>{@code kind}: the event type name, for routing after the gate.
 *   <li>{@code payload}: the event body as JSON; opaque to the gate.
 * </ul>
 */
public class GateEvent {

    private String sourceKey;
    private long version;
    private String eventId;
    private long eventTimeMillis;
    private long ingestTimeMillis;
    private String kind;
    private String payload;

    /**
     * On an event re-injected from the dead-letter table (CS08 replay): the entry it came from (its
     * key, {@code pk}, a newline, {@code sk}) and the version its replay was requested at; null / 0
     * on events from the stream. Not part of the event's JSON nor of its equality.
     */
    private String replayOf;

    private long replayVersion;

    /** For Flink's POJO serializer. */
    public GateEvent() {}

    /** The tenant of a {@code tenant/...} source key (every gate's key starts so), or null. */
    public static String tenantOf(String sourceKey) {
        if (sourceKey == null) {
            return null;
        }
        int slash = sourceKey.indexOf('/');
        return slash > 0 ? sourceKey.substring(0, slash) : null;
    }

    public GateEvent(
            String sourceKey,
            long version,
            String eventId,
            long eventTimeMillis,
            long ingestTimeMillis,
            String kind,
            String payload) {
        this.sourceKey = sourceKey;
        this.version = version;
        this.eventId = eventId;
        this.eventTimeMillis = eventTimeMillis;
        this.ingestTimeMillis = ingestTimeMillis;
        this.kind = kind;
        this.payload = payload;
    }

    public String getSourceKey() {
        return sourceKey;
    }

    public void setSourceKey(String sourceKey) {
        this.sourceKey = sourceKey;
    }

    public long getVersion() {
        return version;
    }

    public void setVersion(long version) {
        this.version = version;
    }

    public String getEventId() {
        return eventId;
    }

    public void setEventId(String eventId) {
        this.eventId = eventId;
    }

    public long getEventTimeMillis() {
        return eventTimeMillis;
    }

    public void setEventTimeMillis(long eventTimeMillis) {
        this.eventTimeMillis = eventTimeMillis;
    }

    public long getIngestTimeMillis() {
        return ingestTimeMillis;
    }

    public void setIngestTimeMillis(long ingestTimeMillis) {
        this.ingestTimeMillis = ingestTimeMillis;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public String getPayload() {
        return payload;
    }

    public void setPayload(String payload) {
        this.payload = payload;
    }

    @JsonIgnore
    public String getReplayOf() {
        return replayOf;
    }

    public void setReplayOf(String replayOf) {
        this.replayOf = replayOf;
    }

    @JsonIgnore
    public long getReplayVersion() {
        return replayVersion;
    }

    public void setReplayVersion(long replayVersion) {
        this.replayVersion = replayVersion;
    }

    /** Whether this event is a replay of a dead-letter entry. */
    @JsonIgnore
    public boolean isReplay() {
        return replayOf != null;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof GateEvent)) {
            return false;
        }
        GateEvent that = (GateEvent) o;
        return version == that.version
                && eventTimeMillis == that.eventTimeMillis
                && ingestTimeMillis == that.ingestTimeMillis
                && Objects.equals(sourceKey, that.sourceKey)
                && Objects.equals(eventId, that.eventId)
                && Objects.equals(kind, that.kind)
                && Objects.equals(payload, that.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceKey, version, eventId);
    }

    @Override
    public String toString() {
        return "GateEvent{" + sourceKey + " v" + version + " id=" + eventId + " kind=" + kind + '}';
    }
}
