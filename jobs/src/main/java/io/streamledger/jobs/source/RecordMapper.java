package io.streamledger.jobs.source;

import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.OutboxEvent;
import java.io.Serializable;
import java.util.Optional;

/**
 * Turns one parsed change record (or relayed outbox event) into the job's business event; empty
 * means "not for this job" (a counted skip), an exception means bad input (a dead letter).
 */
public interface RecordMapper<T> extends Serializable {

    Optional<T> fromChange(ChangeRecord change);

    /** Relayed outbox events (Kinesis OUTBOX_EVENT payload); unsupported unless overridden. */
    default Optional<T> fromOutbox(OutboxEvent event) {
        throw new IllegalArgumentException(
                "this job does not read relayed outbox events (" + event.eventType() + ")");
    }
}
