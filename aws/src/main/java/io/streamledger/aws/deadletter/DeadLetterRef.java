package io.streamledger.aws.deadletter;

import io.streamledger.model.deadletter.DeadLetterIds;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.DeadLetterKey;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The public reference of a dead-letter entry, {@code job:REASON:id}: everything but the tenant
 * that locates its item (CS08 key {@code TEN#t#DLQ#job / DL#reason#id}) with one GetItem.
 */
public record DeadLetterRef(String job, DeadLetterReason reason, String id) {

    private static final Pattern SHAPE =
            Pattern.compile(
                    "([a-z][a-z0-9-]{0,31}):([A-Z_]{1,40}):([0-9a-f]{"
                            + DeadLetterIds.LENGTH
                            + "})");

    public static String format(String job, DeadLetterReason reason, String id) {
        return job + ":" + reason.name() + ":" + id;
    }

    /**
     * @throws IllegalArgumentException with the expected shape when {@code ref} is not one
     */
    public static DeadLetterRef parse(String ref) {
        Matcher m = ref == null ? null : SHAPE.matcher(ref);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException(
                    "dead-letter id must be 'job:REASON:"
                            + DeadLetterIds.LENGTH
                            + " hex digits', got '"
                            + ref
                            + "'");
        }
        DeadLetterReason reason;
        try {
            reason = DeadLetterReason.of(m.group(2));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown dead-letter reason '" + m.group(2) + "'");
        }
        return new DeadLetterRef(m.group(1), reason, m.group(3));
    }

    public DeadLetterKey key(String tenant) {
        return new DeadLetterKey(tenant, job, reason.name(), id);
    }
}
