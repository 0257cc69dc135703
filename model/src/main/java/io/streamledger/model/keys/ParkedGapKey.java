package io.streamledger.model.keys;

import java.util.List;

/**
 * A parked-gap record (CS07: open gaps visible beside the dead letters, CS08) in the DeadLetter
 * table, tenant first: {@code TEN#t#GAPS#job / GAP#id}, so one query lists a tenant's gaps of one
 * job; its partition is apart from the dead letters' {@link DeadLetterKey}.
 *
 * @param tenant {@code t}
 * @param job {@code job}, e.g. {@code posting}
 * @param id {@code id}, {@code ParkedGapIds.of(...)}
 */
public record ParkedGapKey(String tenant, String job, String id) implements ItemKey {

    public static final KeyPattern PK = KeyPattern.of("TEN#t#GAPS#job");
    public static final KeyPattern SK = KeyPattern.of("GAP#id");

    public ParkedGapKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("job", job);
        KeyComponents.require("id", id);
    }

    public static ParkedGapKey parse(String pk, String sk) {
        List<String> p = PK.match(pk);
        List<String> s = SK.match(sk);
        return new ParkedGapKey(p.get(0), p.get(1), s.get(0));
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
        return SK.build(id);
    }
}
