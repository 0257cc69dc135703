package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verifier accepts the seed's block and names the rule a targeted edit breaks. */
class ContractVerifierTest {
    private static final String MODEL = ContractResources.modelText();

    @Test
    void seedBlockAndRenderTableAreConsistent() {
        assertThat(
                        ContractVerifier.verify(
                                ContractResources.contract(), ContractResources.renderTable()))
                .isEmpty();
    }

    @Test
    void everyRenderFigureIsRecomputed() {
        assertThat(ContractVerifier.figureChecks(ContractResources.renderTable()))
                .hasSize(46)
                .allMatch(c -> c.status() == FigureCheck.Status.OK);
    }

    @Test
    void removedMapRowIsDetected() {
        List<Violation> v = verify(edit(MODEL, "MAP|AP15|IDX14,IDX15", null));
        assertThat(rules(v)).contains(MapAgreementRule.RULE);
        assertThat(v).anyMatch(x -> x.subject().equals("AP15->IDX14"));
    }

    @Test
    void mapRowDisagreeingWithIndexIsDetected() {
        List<Violation> v = verify(edit(MODEL, "MAP|AP16|IDX16,IDX17", "MAP|AP16|IDX16"));
        assertThat(v).anyMatch(x -> x.rule().equals("MAP") && x.subject().equals("AP16->IDX17"));
    }

    @Test
    void swappedApInIndexRowIsDetected() {
        String line =
                "INDEX|IDX05|GSI1|Execution|TEN#t#ACCT#a|TRADE#at#id|projected summary|eventual|AP05";
        List<Violation> v = verify(edit(MODEL, line, line.replace("|AP05", "|AP06")));
        assertThat(rules(v)).contains(MapAgreementRule.RULE, AccessPatternIndexRule.RULE);
        assertThat(v).anyMatch(x -> x.subject().equals("AP05") && x.detail().contains("no INDEX"));
    }

    @Test
    void indexServingUnknownApIsDetected() {
        String line =
                "INDEX|IDX18|BASE|Orders|TEN#t#CLIENTORDER#id|UNIQUE|sentinel|transactional|AP17";
        assertThat(verify(edit(MODEL, line, line + ",AP19")))
                .anyMatch(x -> x.rule().equals("AP_INDEX") && x.detail().contains("AP19"));
    }

    @Test
    void wrongStateWordsAreDetected() {
        assertThat(verify(replaceInLane("L01", "LOAD_TEST_REQUIRED", "FEASIBLE_PLANNING")))
                .anyMatch(x -> x.rule().equals(LaneRule.STATE) && x.subject().equals("L01"));
        assertThat(verify(replaceInLane("L06", "FEASIBLE_PLANNING", "LOAD_TEST_REQUIRED")))
                .anyMatch(x -> x.rule().equals(LaneRule.STATE) && x.subject().equals("L06"));
        assertThat(verify(replaceInLane("L09B", "UNPROVEN", "LOAD_TEST_REQUIRED")))
                .anyMatch(x -> x.rule().equals(LaneRule.STATE) && x.subject().equals("L09B"));
        assertThat(verify(replaceInLane("L14", "LOAD_TEST_REQUIRED", "UNPROVEN")))
                .anyMatch(x -> x.rule().equals(LaneRule.STATE) && x.subject().equals("L14"));
    }

    @Test
    void loadAboveTargetMustNotBeFeasible() {
        // 5000 x 2 x 1 / 12 shards = 833.33 > 800: shards wrong and the lane is not feasible
        List<Violation> v = verify(replaceInLane("L09A", "|13|800|769.23|", "|12|800|833.33|"));
        assertThat(v)
                .anyMatch(x -> x.rule().equals(LaneRule.SHARDS))
                .anyMatch(
                        x ->
                                x.rule().equals(LaneRule.STATE)
                                        && x.detail().contains("LOAD_TEST_REQUIRED"));
    }

    @Test
    void routeThatIsNotAnIndexMustBeUnproven() {
        List<LaneAssessment> lanes = ContractVerifier.lanes(ContractResources.contract());
        LaneAssessment l09b =
                lanes.stream().filter(a -> a.lane().id().equals("L09B")).findFirst().orElseThrow();
        assertThat(l09b.recomputedState()).isEqualTo(LaneState.UNPROVEN);
        assertThat(l09b.consistent()).isTrue();
    }

    @Test
    void ap16LaneRatesFollowTheLifecycle() {
        List<LaneAssessment> lanes = ContractVerifier.lanes(ContractResources.contract());
        LaneAssessment l16b =
                lanes.stream().filter(a -> a.lane().id().equals("L16B")).findFirst().orElseThrow();
        assertThat(l16b.recomputedLoadPerShard()).isEqualByComparingTo("787.69");
        assertThat(l16b.recomputedShards()).isEqualByComparingTo("13");
        // swapping the two AP16 lane rates breaks both derivations
        String swapped = replaceInLane("L16A", "|WRITE|40440|", "|WRITE|10240|");
        assertThat(verify(swapped))
                .anyMatch(x -> x.rule().equals(LaneRule.RATE) && x.subject().equals("L16A"));
    }

    @Test
    void missingLaneForMappedRouteIsDetected() {
        String text = removeLane(MODEL, "L15B");
        assertThat(verify(text))
                .anyMatch(
                        x ->
                                x.rule().equals(LaneRule.COVERAGE)
                                        && x.subject().equals("AP15->IDX15"));
    }

    @Test
    void ampTotalFormulaIsChecked() {
        String line =
                "AMP|AMP12|AP16|outbox create+READY insert|2|2|1|1|5|transactional base+async insert";
        assertThat(verify(edit(MODEL, line, line.replace("|1|1|5|", "|1|1|4|"))))
                .anyMatch(
                        x ->
                                x.rule().equals(AmplificationRule.FORMULA)
                                        && x.subject().equals("AMP12"));
    }

    @Test
    void renderMismatchMissingAndExtraIdsAreReported() {
        String render = ContractResources.renderText();
        RenderTable changed =
                RenderTable.parse(
                        render.replace(
                                        "| ap16_per_shard_wru_s | 787.69 |",
                                        "| ap16_per_shard_wru_s | 787.70 |")
                                .replace("| ap06_shards | 1 |", "| ap06_shard_count | 1 |"));
        List<Violation> v = ContractVerifier.verify(ContractResources.contract(), changed);
        assertThat(v)
                .extracting(Violation::toString)
                .contains(
                        "RENDER ap16_per_shard_wru_s: seed 787.7, recomputed 787.69",
                        "RENDER ap06_shards: missing from the render table",
                        "RENDER ap06_shard_count: not a figure the capacity model computes");
    }

    @Test
    void modelInputsMustMatchTheApRows() {
        String line =
                ContractResources.contract()
                        .accessPattern("AP13")
                        .orElseThrow()
                        .cardinalityAndSize();
        assertThat(line).isEqualTo("1x0.3KiB");
        String text =
                MODEL.replace(
                        "|1x0.3KiB|5000 write/s|Projection|", "|1x1.3KiB|5000 write/s|Projection|");
        assertThat(verify(text))
                .anyMatch(x -> x.rule().equals(ModelInputRule.RULE) && x.subject().equals("AP13"));
    }

    static List<Violation> verify(String modelText) {
        return ContractVerifier.verify(
                ContractParser.parse(modelText), ContractResources.renderTable());
    }

    static List<String> rules(List<Violation> v) {
        return v.stream().map(Violation::rule).toList();
    }

    /** Replaces (or with null removes) exactly one whole line. */
    static String edit(String text, String line, String replacement) {
        List<String> out = new ArrayList<>();
        int hits = 0;
        for (String l : text.split("\n", -1)) {
            if (l.equals(line)) {
                hits++;
                if (replacement != null) {
                    out.add(replacement);
                }
            } else {
                out.add(l);
            }
        }
        assertThat(hits).as("line present once: " + line).isEqualTo(1);
        return String.join("\n", out);
    }

    static String replaceInLane(String laneId, String from, String to) {
        String line = laneLine(laneId);
        assertThat(line).contains(from);
        return edit(MODEL, line, line.replace(from, to));
    }

    static String removeLane(String text, String laneId) {
        return edit(text, laneLine(laneId), null);
    }

    private static String laneLine(String laneId) {
        return MODEL.lines()
                .filter(l -> l.startsWith("LANE|" + laneId + "|"))
                .findFirst()
                .orElseThrow();
    }
}
