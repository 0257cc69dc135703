package io.streamledger.jobs.deadletter;

import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.model.change.JsonFields;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.operators.gate.GateEvent;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Turns stored dead-letter entries back into the record a job had when it set them aside (CS08
 * replay): a source entry's raw payload re-read through the job's own parse step, a gate entry's
 * serialized event, and the reference a re-injected event carries back to its entry so the job can
 * settle it. Every decode failure is an {@link IllegalArgumentException} naming why, which the
 * {@link ReplaySource} records on the entry (back to OPEN, attempts + 1).
 */
public final class Replays {

    private Replays() {}

    /** Entries the parse step set aside (the raw payload is all they keep). */
    public static boolean fromSource(DeadLetterReason reason) {
        return reason == DeadLetterReason.UNPARSEABLE_RECORD
                || reason == DeadLetterReason.UNMAPPABLE_EVENT;
    }

    /** Entries a versioned gate set aside (the serialized {@link GateEvent} is the payload). */
    public static boolean fromGate(DeadLetterReason reason) {
        return reason == DeadLetterReason.INVALID_EVENT
                || reason == DeadLetterReason.PARK_OVERFLOW
                || reason == DeadLetterReason.VERSION_CONFLICT;
    }

    /**
     * The reference a re-injected record carries: the entry's table key ({@link
     * DeadLetterKey#ref}).
     */
    public static String ref(DeadLetterView entry) {
        return entry.key().ref();
    }

    /** The entry key of a {@link #ref}. */
    public static DeadLetterKey key(String ref) {
        return DeadLetterKey.fromRef(ref);
    }

    /** A gate entry's event, tagged as the replay of that entry. */
    public static GateEvent gateEvent(DeadLetterView entry) {
        if (!fromGate(entry.reason()) || !"json".equals(entry.payloadEncoding())) {
            throw new IllegalArgumentException(
                    "not a gate event (" + entry.reason() + ", " + entry.payloadEncoding() + ")");
        }
        if (entry.payload() == null || entry.payload().isEmpty()) {
            throw new IllegalArgumentException("the entry kept no event");
        }
        GateEvent e;
        try {
            e = JsonFields.MAPPER.readValue(entry.payload(), GateEvent.class);
        } catch (Exception ex) {
            throw new IllegalArgumentException("payload is not a gate event: " + ex.getMessage());
        }
        return tag(e, entry);
    }

    /**
     * A source entry's raw record read again through {@code parse} (the job's own parse step, so a
     * fixed mapper now accepts it), with the transport the job reads.
     *
     * @throws IllegalArgumentException with the parse step's reason if it still fails
     */
    public static <T> T reparse(
            DeadLetterView entry, ParseChanges<T> parse, TransportKind transport) {
        Optional<T> parsed;
        try {
            parsed = parse.parse(rawChange(entry, transport));
        } catch (ParseChanges.Failure f) {
            throw new IllegalArgumentException("still " + f.reason() + ": " + f.getMessage());
        }
        return parsed.orElseThrow(
                () -> new IllegalArgumentException("the record is no event of this job"));
    }

    /** The raw record of a source entry: payload bytes and its stream/shard/sequence position. */
    static RawChange rawChange(DeadLetterView entry, TransportKind transport) {
        if (!fromSource(entry.reason())) {
            throw new IllegalArgumentException("not a source dead letter: " + entry.reason());
        }
        byte[] data =
                switch (entry.payloadEncoding()) {
                    case "utf-8" -> entry.payload().getBytes(StandardCharsets.UTF_8);
                    case "base64" -> Base64.getDecoder().decode(entry.payload());
                    default ->
                            throw new IllegalArgumentException(
                                    "payload is " + entry.payloadEncoding());
                };
        String stream = null;
        String shard = null;
        String sequence = null;
        String position = entry.sourcePosition();
        if (position != null) {
            // stream/shard/sequence; a stream ARN has slashes of its own, shard and sequence none
            int last = position.lastIndexOf('/');
            int prev = last > 0 ? position.lastIndexOf('/', last - 1) : -1;
            if (prev > 0) {
                stream = position.substring(0, prev);
                shard = position.substring(prev + 1, last);
                sequence = position.substring(last + 1);
            }
        }
        return new RawChange(
                transport.name(),
                stream,
                shard,
                sequence,
                entry.lastSeen() == null ? 0 : entry.lastSeen().toEpochMilli(),
                data);
    }

    /** Marks {@code e} as the replay of {@code entry} at the entry's requested version. */
    public static GateEvent tag(GateEvent e, DeadLetterView entry) {
        e.setReplayOf(ref(entry));
        e.setReplayVersion(entry.version());
        return e;
    }
}
