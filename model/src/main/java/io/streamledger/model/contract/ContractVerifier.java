package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Entry point of the capacity-contract verifier (seed "Machine-readable AP, path, and amplification
 * contract" and capacity render table): returns named violations, empty when the block, the render
 * table and the first-principles capacity model agree.
 */
public final class ContractVerifier {
    private static final List<ContractRule> CONTRACT_RULES =
            List.of(
                    new AccessPatternIndexRule(),
                    new MapAgreementRule(),
                    new AmplificationRule(),
                    new LaneRule(),
                    new ModelInputRule());

    private ContractVerifier() {}

    /** All checks: the block's own consistency plus the render table's recomputed figures. */
    public static List<Violation> verify(Contract contract, RenderTable render) {
        List<Violation> out = new ArrayList<>(verifyContract(contract));
        out.addAll(new RenderFiguresRule().check(render));
        return out;
    }

    /** The block's own consistency (AP/INDEX/MAP/AMP/LANE and model inputs). */
    public static List<Violation> verifyContract(Contract contract) {
        List<Violation> out = new ArrayList<>();
        for (ContractRule rule : CONTRACT_RULES) {
            out.addAll(rule.check(contract));
        }
        return out;
    }

    /** Each render-table figure next to its recomputation, model order first. */
    public static List<FigureCheck> figureChecks(RenderTable render) {
        return new RenderFiguresRule().compare(render);
    }

    /** Every LANE row with its recomputed shards, load/shard and state. */
    public static List<LaneAssessment> lanes(Contract contract) {
        return new LaneRule().assess(contract);
    }

    /** Contract INDEX rows against the key paths the code declares (IDX01–IDX19). */
    public static List<Violation> crossCheck(
            Contract contract, Collection<DeclaredIndex> declared) {
        return new DeclaredIndexCrossCheck().check(contract, declared);
    }

    /** Configurable alternative key shapes (IDX06 write sharding) against their INDEX rows. */
    public static List<Violation> crossCheckFallbacks(
            Contract contract, Collection<DeclaredIndex> fallbacks) {
        return new DeclaredIndexCrossCheck().checkFallbacks(contract, fallbacks);
    }
}
