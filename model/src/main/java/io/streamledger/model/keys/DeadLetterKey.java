package io.streamledger.model.keys;

import java.util.List;

/**
 * A durable dead-letter entry (CS08) in the DeadLetter table, tenant first like every tenant key:
 * {@code TEN#t#DLQ#job / DL#reason#id}, so one query lists a tenant's entries of one job, and a
 * {@code begins_with(DL#reason)} narrows them to one reason.
 *
 * @param tenant {@code t}, or {@link #UNKNOWN_TENANT} when the record could not be read
 * @param job {@code job}, e.g. {@code posting}
 * @param reason {@code reason}, a {@code DeadLetterReason} name
 * @param id {@code id}, the deterministic entry id
 */
public record DeadLetterKey(String tenant, String job, String reason, String id)
        implements ItemKey {

    /** Tenant of a record whose tenant cannot be read (unparseable bytes). */
    public static final String UNKNOWN_TENANT = "_unknown";

    public static final KeyPattern PK = KeyPattern.of("TEN#t#DLQ#job");
    public static final KeyPattern SK = KeyPattern.of("DL#reason#id");

    public DeadLetterKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("job", job);
        KeyComponents.require("reason", reason);
        KeyComponents.require("id", id);
    }

    /** Separates {@code pk} and {@code sk} in a {@link #ref}; neither key string contains it. */
    private static final char REF_SEPARATOR = '\n';

    /**
     * The reference a re-injected record carries back to this entry (its table key, {@code pk}, a
     * newline, {@code sk}), so the job can settle the entry it came from.
     */
    public String ref() {
        return pk() + REF_SEPARATOR + sk();
    }

    /** The key of a {@link #ref}. */
    public static DeadLetterKey fromRef(String ref) {
        int cut = ref == null ? -1 : ref.indexOf(REF_SEPARATOR);
        if (cut < 0) {
            throw new IllegalArgumentException("not a dead-letter reference: " + ref);
        }
        return parse(ref.substring(0, cut), ref.substring(cut + 1));
    }

    public static DeadLetterKey parse(String pk, String sk) {
        List<String> p = PK.match(pk);
        List<String> s = SK.match(sk);
        return new DeadLetterKey(p.get(0), p.get(1), s.get(0), s.get(1));
    }

    @Override
    public String indexId() {
        return "DLQ";
    }

    @Override
    public String pk() {
        return PK.build(tenant, job);
    }

    @Override
    public String sk() {
        return SK.build(reason, id);
    }
}
