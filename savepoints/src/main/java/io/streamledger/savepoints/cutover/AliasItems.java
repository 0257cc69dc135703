package io.streamledger.savepoints.cutover;

import io.streamledger.aws.items.ProjectionAliasItems;
import io.streamledger.model.keys.ProjectionAliasKey;
import io.streamledger.model.table.Attr;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Keys and attribute names of the alias item ({@code ALIAS#name / ALIAS}, carrying {@link
 * Attr#ACTIVE_VERSION}) and of the proof records stored beside it ({@code ALIAS#name / PROOF#V#n})
 * in the Projection table (CS09 step 7).
 */
public final class AliasItems {

    private AliasItems() {}

    public static final String PROOF_SK_PREFIX = "PROOF#V#";
    public static final String PROOF_DIGEST = "proofDigest";
    public static final String PROOF_PASSED = "proofPassed";
    public static final String PREVIOUS_VERSION = "previousVersion";
    public static final String CUTOVER_AT = "cutoverAt";
    public static final String RECORDED_AT = "recordedAt";

    public static Map<String, AttributeValue> aliasKey(String projection) {
        return ProjectionAliasItems.key(new ProjectionAliasKey(projection));
    }

    public static Map<String, AttributeValue> proofKey(String projection, int version) {
        ProjectionAliasKey k = new ProjectionAliasKey(projection);
        return Map.of(
                Attr.PK,
                AttributeValue.fromS(k.pk()),
                Attr.SK,
                AttributeValue.fromS(PROOF_SK_PREFIX + version));
    }
}
