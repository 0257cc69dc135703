package io.streamledger.model.deadletter;

/**
 * The deterministic id of a parked-gap record (CS07): the dead-letter id formula over {@code
 * job|gap:operator|sourceKey@missingVersion}, so a gap re-opened by a replay after a restore lands
 * on its existing record and each (key, expected version) has exactly one.
 */
public final class ParkedGapIds {

    private ParkedGapIds() {}

    /**
     * @param operator the gate's operator uid
     * @param sourceKey the gate key (aggregate key)
     * @param missingVersion the version the key waits for
     */
    public static String of(String job, String operator, String sourceKey, long missingVersion) {
        return DeadLetterIds.of(job, "gap:" + operator + "|" + sourceKey + "@" + missingVersion);
    }
}
