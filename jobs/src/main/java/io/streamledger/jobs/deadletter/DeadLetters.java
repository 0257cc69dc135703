package io.streamledger.jobs.deadletter;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.model.change.JsonFields;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.recon.ReconEvent;
import io.streamledger.sinks.deadletter.DeadLetterConverter;
import io.streamledger.sinks.deadletter.DeadLetterSink;
import java.time.Instant;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Every kind of record a job sets aside, mapped onto the one durable dead-letter entry (CS08), and
 * the production sink that writes them: source dead letters, gate dead letters, rejected fills and
 * late reconciliation records (rejected fills: PostingRejections). The entry id is a function of
 * job + source position (or event id), so a record replayed after a restart lands on its existing
 * entry.
 */
public final class DeadLetters {

    /** Write attempts per entry on throttles/5xx (the SDK's own retries come on top). */
    public static final int MAX_ATTEMPTS = 10;

    public static final long BACKOFF_BASE_MILLIS = 50;
    public static final long BACKOFF_MAX_MILLIS = 5_000;

    private DeadLetters() {}

    /** The DynamoDB dead-letter sink of {@code conf}'s table, client and prefix. */
    public static <T> Sink<T> sink(ReadableConfig conf, DeadLetterConverter<T> converter) {
        return new DeadLetterSink<>(
                JobOptions.dynamoDbClient(conf),
                table(conf),
                converter,
                MAX_ATTEMPTS,
                BACKOFF_BASE_MILLIS,
                BACKOFF_MAX_MILLIS);
    }

    /** The physical DeadLetter table. */
    public static String table(ReadableConfig conf) {
        return new TableNaming(conf.get(JobOptions.TABLE_PREFIX)).physicalName(Tables.DEAD_LETTER);
    }

    /** Records the source stage could not parse or map; their tenant is unknown. */
    public static DeadLetterConverter<SourceDeadLetter> fromSource(String job, String operator) {
        return d -> {
            String position = position(d);
            return new DeadLetterEntry(
                    null,
                    job,
                    operator,
                    DeadLetterReason.of(d.getReason()),
                    d.getDetail(),
                    d.getPayload(),
                    d.getPayloadEncoding(),
                    position != null ? position : "payload:" + d.getPayload(),
                    position,
                    null,
                    0,
                    d.getAtMillis());
        };
    }

    /** Events the projection gate refused to hold (AP13). */
    public static DeadLetterConverter<DeadLetter> fromGate(String job, String operator) {
        return d -> {
            GateEvent e = d.getEvent();
            String sourceKey = e == null ? null : e.getSourceKey();
            String origin =
                    e == null
                            ? "detail:" + d.getDetail()
                            : e.getEventId() != null
                                    ? "event:" + e.getEventId()
                                    : "key:" + sourceKey + "@" + e.getVersion();
            return new DeadLetterEntry(
                    tenantOf(sourceKey),
                    job,
                    operator,
                    DeadLetterReason.of(d.getReason().name()),
                    d.getDetail(),
                    e == null ? "" : json(e),
                    "json",
                    origin,
                    null,
                    sourceKey,
                    e == null ? 0 : Math.max(0, e.getVersion()),
                    d.getAtMillis());
        };
    }

    /** Reconciliation records later than their window's allowed lateness (AP14). */
    public static DeadLetterConverter<ReconEvent> fromLateRecord(String job, String operator) {
        return e -> {
            String subject = e.subject();
            return new DeadLetterEntry(
                    e.tenant,
                    job,
                    operator,
                    DeadLetterReason.LATE_RECORD,
                    e.kind + " at " + Instant.ofEpochMilli(e.eventTimeMillis) + " after its window",
                    json(e),
                    "json",
                    e.kind + ":" + subject,
                    null,
                    "Account#" + e.account(),
                    e.kind == ReconEvent.Kind.AUTHORITY ? e.authority().version() : 0,
                    System.currentTimeMillis());
        };
    }

    /** The tenant of a {@code tenant/...} source key, or null. */
    static String tenantOf(String sourceKey) {
        return GateEvent.tenantOf(sourceKey);
    }

    static String position(SourceDeadLetter d) {
        if (d.getShardId() == null || d.getSequenceNumber() == null) {
            return null;
        }
        return d.getStream() + "/" + d.getShardId() + "/" + d.getSequenceNumber();
    }

    static String json(Object value) {
        try {
            return JsonFields.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("not serializable: " + value, e);
        }
    }
}
