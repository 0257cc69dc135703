package io.streamledger.savepoints.cutover;

import io.streamledger.aws.error.CancellationCode;
import io.streamledger.model.table.Attr;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.proof.NamespaceScans;
import io.streamledger.savepoints.proof.ProofReport;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Moves the reader alias {@code ALIAS#<projection> → activeVersion} to a proven namespace (CS09
 * step 7) and retires old namespaces only on a separate explicit call.
 *
 * <p>{@link #recordProof} stores the proof digest beside the alias; {@link #cutover} is one
 * TransactWriteItems: a ConditionCheck that the stored proof for the target version has exactly the
 * report's digest and passed, plus the alias update conditioned on the expected current version;
 * the alias also takes the view scope the proof was made in ({@link Attr#VIEW_SCOPE}). A failed
 * proof, a different report, or a concurrent cutover all refuse, writing nothing.
 */
public final class AliasCutover {

    private final DynamoDbClient ddb;
    private final String projectionTable;

    public AliasCutover(DynamoDbClient ddb, String projectionTable) {
        this.ddb = ddb;
        this.projectionTable = projectionTable;
    }

    /** The alias's active version, empty when no alias exists yet. */
    public OptionalInt activeVersion(String projection) {
        GetItemResponse r =
                ddb.getItem(
                        b ->
                                b.tableName(projectionTable)
                                        .key(AliasItems.aliasKey(projection))
                                        .consistentRead(true));
        if (!r.hasItem() || r.item().isEmpty() || r.item().get(Attr.ACTIVE_VERSION) == null) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(r.item().get(Attr.ACTIVE_VERSION).n()));
    }

    /** Stores the report's digest and verdict for its namespace (overwrites an older proof). */
    public void recordProof(ProofReport report) {
        Map<String, AttributeValue> item =
                new HashMap<>(AliasItems.proofKey(report.projection(), report.namespaceVersion()));
        item.put(AliasItems.PROOF_DIGEST, AttributeValue.fromS(report.digest()));
        item.put(AliasItems.PROOF_PASSED, AttributeValue.fromBool(report.passed()));
        item.put(Attr.VIEW_SCOPE, AttributeValue.fromS(report.viewScope().label()));
        item.put(AliasItems.RECORDED_AT, AttributeValue.fromS(Instant.now().toString()));
        ddb.putItem(b -> b.tableName(projectionTable).item(item));
    }

    /**
     * Flips the alias to {@code report}'s namespace.
     *
     * @param expectedCurrent the version the alias must be at now; 0 = no alias yet
     * @param expectedDigest the digest the operator approved (e.g. from proof.sha256)
     * @throws CutoverRefusedException with the reason; nothing is written then
     */
    public void cutover(ProofReport report, int expectedCurrent, String expectedDigest) {
        String digest = report.digest();
        if (!digest.equals(expectedDigest)) {
            throw new CutoverRefusedException(
                    "cutover refused: proof.json has digest "
                            + digest
                            + " but "
                            + expectedDigest
                            + " was approved; the report changed after it was reviewed");
        }
        if (!report.passed()) {
            throw new CutoverRefusedException(
                    "cutover refused: the proof of "
                            + report.projection()
                            + " v"
                            + report.namespaceVersion()
                            + " FAILED: "
                            + String.join(" | ", report.failures()));
        }
        int target = report.namespaceVersion();
        if (target == expectedCurrent) {
            throw new CutoverRefusedException(
                    "cutover refused: the alias is expected at v" + target + " already");
        }
        String projection = report.projection();
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":d", AttributeValue.fromS(digest));
        values.put(":t", AttributeValue.fromBool(true));
        ConditionCheck proof =
                ConditionCheck.builder()
                        .tableName(projectionTable)
                        .key(AliasItems.proofKey(projection, target))
                        .conditionExpression("#d = :d AND #p = :t")
                        .expressionAttributeNames(
                                Map.of(
                                        "#d", AliasItems.PROOF_DIGEST,
                                        "#p", AliasItems.PROOF_PASSED))
                        .expressionAttributeValues(values)
                        .build();
        Map<String, AttributeValue> aliasValues = new HashMap<>();
        aliasValues.put(":v", AttributeValue.fromN(Integer.toString(target)));
        aliasValues.put(":d", AttributeValue.fromS(digest));
        aliasValues.put(":at", AttributeValue.fromS(Instant.now().toString()));
        aliasValues.put(":prev", AttributeValue.fromN(Integer.toString(expectedCurrent)));
        // readers learn from the alias which accounts the active namespace holds
        aliasValues.put(":sc", AttributeValue.fromS(report.viewScope().label()));
        String condition;
        if (expectedCurrent == 0) {
            condition = "attribute_not_exists(#v)";
        } else {
            condition = "#v = :prev";
        }
        Update alias =
                Update.builder()
                        .tableName(projectionTable)
                        .key(AliasItems.aliasKey(projection))
                        .updateExpression(
                                "SET #v = :v, #pd = :d, #at = :at, #pv = :prev, #sc = :sc")
                        .conditionExpression(condition)
                        .expressionAttributeNames(
                                Map.of(
                                        "#v", Attr.ACTIVE_VERSION,
                                        "#pd", AliasItems.PROOF_DIGEST,
                                        "#at", AliasItems.CUTOVER_AT,
                                        "#pv", AliasItems.PREVIOUS_VERSION,
                                        "#sc", Attr.VIEW_SCOPE))
                        .expressionAttributeValues(aliasValues)
                        .build();
        try {
            ddb.transactWriteItems(
                    b ->
                            b.transactItems(
                                    TransactWriteItem.builder().conditionCheck(proof).build(),
                                    TransactWriteItem.builder().update(alias).build()));
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.cancellationReasons();
            if (CancellationCode.conditionFailed(reasons, 0)) {
                throw new CutoverRefusedException(
                        "cutover refused: no passed proof with digest "
                                + digest
                                + " is recorded for "
                                + projection
                                + " v"
                                + target
                                + " (run verify first)");
            }
            if (CancellationCode.conditionFailed(reasons, 1)) {
                OptionalInt now = activeVersion(projection);
                throw new CutoverRefusedException(
                        "cutover refused: the alias is at "
                                + (now.isPresent() ? "v" + now.getAsInt() : "no version")
                                + ", expected "
                                + (expectedCurrent == 0 ? "no alias" : "v" + expectedCurrent));
            }
            throw e;
        }
    }

    /**
     * Deletes an old namespace: its Portfolio table and its checkpoint rows. Refused for the active
     * version and for any version newer than it (a rebuild not yet cut over).
     */
    public long retire(Namespace old) {
        OptionalInt active = activeVersion(old.base());
        if (active.isEmpty()) {
            throw new CutoverRefusedException(
                    "retire refused: " + old.base() + " has no alias; nothing is known to be live");
        }
        if (old.version() >= active.getAsInt()) {
            throw new CutoverRefusedException(
                    "retire refused: v"
                            + old.version()
                            + " is "
                            + (old.version() == active.getAsInt()
                                    ? "the active"
                                    : "newer than the active")
                            + " namespace (alias at v"
                            + active.getAsInt()
                            + ")");
        }
        long deleted = 0;
        for (Map<String, AttributeValue> cp : NamespaceScans.checkpoints(ddb, old)) {
            Map<String, AttributeValue> key =
                    Map.of(Attr.PK, cp.get(Attr.PK), Attr.SK, cp.get(Attr.SK));
            ddb.deleteItem(b -> b.tableName(projectionTable).key(key));
            deleted++;
        }
        if (NamespaceTables.exists(ddb, old.portfolioTable())) {
            ddb.deleteTable(b -> b.tableName(old.portfolioTable()));
        }
        return deleted;
    }
}
