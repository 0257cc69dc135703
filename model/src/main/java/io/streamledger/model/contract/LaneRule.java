package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The seed's lane contract: each LANE row's rate, units, target, shards, load/shard and state are
 * recomputed ({@code rate x units x share / shards}, 80% of the partition ceiling, FEASIBLE only
 * with explicit share and shards), the AP16 lane rates follow from the AP16 lifecycle, and every AP
 * and mapped route has a lane.
 */
final class LaneRule implements ContractRule {
    static final String ID = "LANE_ID";
    static final String AP = "LANE_AP";
    static final String RATE = "LANE_RATE";
    static final String ROUTE = "LANE_ROUTE";
    static final String UNITS = "LANE_UNITS";
    static final String TARGET = "LANE_TARGET";
    static final String SHARE = "LANE_SHARE";
    static final String SHARDS = "LANE_SHARDS";
    static final String LOAD = "LANE_LOAD";
    static final String STATE = "LANE_STATE";
    static final String EVIDENCE = "LANE_EVIDENCE";
    static final String COVERAGE = "LANE_COVERAGE";

    private static final Pattern LANE_ID = Pattern.compile("L(\\d{2})[A-Z]?");
    private static final Pattern INDEX_ID = Pattern.compile("IDX\\d+");
    private static final Pattern SIMPLE_RATE =
            Pattern.compile("(\\d+(?:\\.\\d+)?) [a-z]+/s(?:;top share (\\d+(?:\\.\\d+)?)%)?");
    private static final Pattern AMP_REFERENCE = Pattern.compile("AMP\\d+");
    private static final BigDecimal HUNDRED = new BigDecimal("100");

    @Override
    public List<Violation> check(Contract contract) {
        List<Violation> out = new ArrayList<>(Duplicates.of(ID, contract.lanes(), LaneRow::id));
        for (LaneAssessment a : assess(contract)) {
            out.addAll(a.violations());
        }
        out.addAll(coverage(contract));
        return out;
    }

    /** Recomputes every lane and lists what disagrees, row by row. */
    List<LaneAssessment> assess(Contract contract) {
        Map<String, LaneBasis> basis = CapacityModel.laneBasis();
        List<LaneAssessment> out = new ArrayList<>();
        for (LaneRow lane : contract.lanes()) {
            out.add(assess(contract, lane, basis.get(lane.id())));
        }
        return out;
    }

    private LaneAssessment assess(Contract contract, LaneRow lane, LaneBasis basis) {
        List<Violation> v = new ArrayList<>();
        String id = lane.id();
        Optional<AccessPatternRow> ap = contract.accessPattern(lane.accessPattern());
        Matcher idMatch = LANE_ID.matcher(id);
        if (!idMatch.matches()) {
            v.add(new Violation(ID, id, "lane id must be L<AP number>[suffix]"));
        } else if (!lane.accessPattern().equals("AP" + idMatch.group(1))) {
            v.add(new Violation(ID, id, "lane id does not name its " + lane.accessPattern()));
        }
        if (ap.isEmpty()) {
            v.add(new Violation(AP, id, "unknown " + lane.accessPattern()));
        } else if (!lane.peakRateContract().equals(ap.get().peakRate())) {
            v.add(
                    new Violation(
                            RATE,
                            id,
                            "peak-rate contract '"
                                    + lane.peakRateContract()
                                    + "' differs from "
                                    + lane.accessPattern()
                                    + " '"
                                    + ap.get().peakRate()
                                    + "'"));
        }

        Optional<IndexRow> route = contract.index(lane.route());
        if (route.isPresent()) {
            if (!route.get().accessPatterns().contains(lane.accessPattern())) {
                v.add(
                        new Violation(
                                ROUTE,
                                id,
                                lane.route() + " does not serve " + lane.accessPattern()));
            }
        } else if (INDEX_ID.matcher(lane.route()).matches()) {
            v.add(new Violation(ROUTE, id, "unknown index " + lane.route()));
        }

        if (basis == null) {
            v.add(new Violation(UNITS, id, "the capacity model has no derivation for this lane"));
        } else {
            if (basis.unitKind() != lane.unitKind()) {
                v.add(
                        new Violation(
                                UNITS,
                                id,
                                "unit kind " + lane.unitKind() + ", model " + basis.unitKind()));
            }
            if (basis.unitsPerOperation().compareTo(lane.unitsPerOperation()) != 0) {
                v.add(
                        new Violation(
                                UNITS,
                                id,
                                "units/op "
                                        + CapacityModel.format(lane.unitsPerOperation())
                                        + ", recomputed "
                                        + CapacityModel.format(basis.unitsPerOperation())
                                        + " ("
                                        + basis.derivation()
                                        + ")"));
            }
        }

        BigDecimal target = CapacityModel.targetUnitsPerSecond(lane.unitKind());
        if (target.compareTo(lane.targetUnitsPerSecond()) != 0) {
            v.add(
                    new Violation(
                            TARGET,
                            id,
                            "target "
                                    + CapacityModel.format(lane.targetUnitsPerSecond())
                                    + ", 80% of the partition ceiling is "
                                    + CapacityModel.format(target)));
        }

        checkRate(lane, route, v);

        BigDecimal shards = null;
        BigDecimal load = null;
        boolean numeric = lane.maxKeyShare() != null && lane.shards() != null;
        if ((lane.maxKeyShare() == null) != (lane.shards() == null)) {
            v.add(new Violation(SHARDS, id, "max-key share and shards must both be numeric or NA"));
        }
        if (numeric && validShareAndShards(lane, v)) {
            BigDecimal hottestKey =
                    lane.rate().multiply(lane.unitsPerOperation()).multiply(lane.maxKeyShare());
            shards = CapacityModel.shardsFor(hottestKey, lane.unitKind());
            if (shards.compareTo(lane.shards()) != 0) {
                v.add(
                        new Violation(
                                SHARDS,
                                id,
                                "shards "
                                        + CapacityModel.format(lane.shards())
                                        + ", ceil(hottest-key load/target) = "
                                        + CapacityModel.format(shards)));
            }
            load = CapacityModel.perShard(hottestKey, lane.shards());
            if (lane.loadPerShard() == null) {
                v.add(new Violation(LOAD, id, "load/shard is NA but share and shards are numeric"));
            } else if (load.compareTo(lane.loadPerShard()) != 0) {
                v.add(
                        new Violation(
                                LOAD,
                                id,
                                "load/shard "
                                        + CapacityModel.format(lane.loadPerShard())
                                        + ", recomputed "
                                        + CapacityModel.format(load)));
            }
        } else if (!numeric && lane.loadPerShard() != null) {
            v.add(new Violation(LOAD, id, "load/shard is numeric without share and shards"));
        }

        LaneState expected;
        if (route.isEmpty()) {
            expected = LaneState.UNPROVEN;
        } else if (load != null && load.compareTo(target) <= 0) {
            expected = LaneState.FEASIBLE_PLANNING;
        } else {
            expected = LaneState.LOAD_TEST_REQUIRED;
        }
        if (expected != lane.state()) {
            v.add(new Violation(STATE, id, "state " + lane.state() + ", rules give " + expected));
        }

        checkEvidence(contract, lane, v);
        return new LaneAssessment(lane, shards, load, expected, v);
    }

    private static boolean validShareAndShards(LaneRow lane, List<Violation> v) {
        boolean ok = true;
        if (lane.maxKeyShare().signum() <= 0 || lane.maxKeyShare().compareTo(BigDecimal.ONE) > 0) {
            v.add(new Violation(SHARE, lane.id(), "max-key share must be in (0, 1]"));
            ok = false;
        }
        if (lane.shards().signum() <= 0 || lane.shards().stripTrailingZeros().scale() > 0) {
            v.add(new Violation(SHARDS, lane.id(), "shards must be a positive integer"));
            ok = false;
        }
        return ok;
    }

    /** Rate must be the AP's stated rate, or for AP16 the lifecycle units of the route. */
    private static void checkRate(LaneRow lane, Optional<IndexRow> route, List<Violation> v) {
        String text = lane.peakRateContract();
        Optional<Ap16Lifecycle> lifecycle = Ap16Lifecycle.parse(text);
        BigDecimal expected;
        if (lifecycle.isPresent()) {
            if (route.isEmpty()) {
                v.add(new Violation(RATE, lane.id(), "lifecycle lane needs a registered route"));
                return;
            }
            expected =
                    route.get().isBase()
                            ? lifecycle
                                    .get()
                                    .baseTotalWruS(
                                            CapacityModel.writeUnits(CapacityModel.OUTBOX_ITEM_KIB))
                            : lifecycle
                                    .get()
                                    .readyIndexTotalWruS(
                                            CapacityModel.writeUnits(
                                                    CapacityModel.READY_INDEX_ENTRY_KIB));
        } else {
            Matcher m = SIMPLE_RATE.matcher(text);
            if (!m.matches()) {
                v.add(new Violation(RATE, lane.id(), "cannot read a rate from '" + text + "'"));
                return;
            }
            expected = new BigDecimal(m.group(1));
            BigDecimal share = lane.maxKeyShare();
            if (share != null && m.group(2) != null) {
                BigDecimal stated = new BigDecimal(m.group(2)).divide(HUNDRED);
                if (stated.compareTo(share) != 0) {
                    v.add(
                            new Violation(
                                    SHARE,
                                    lane.id(),
                                    "max-key share "
                                            + CapacityModel.format(share)
                                            + ", AP states "
                                            + m.group(2)
                                            + "%"));
                }
            } else if (share != null && share.compareTo(BigDecimal.ONE) != 0) {
                v.add(
                        new Violation(
                                SHARE,
                                lane.id(),
                                "a share other than 1 must be stated by the AP rate contract"));
            }
        }
        if (expected.compareTo(lane.rate()) != 0) {
            v.add(
                    new Violation(
                            RATE,
                            lane.id(),
                            "rate "
                                    + CapacityModel.format(lane.rate())
                                    + ", derived from '"
                                    + text
                                    + "' = "
                                    + CapacityModel.format(expected)));
        }
    }

    /** An AMP id cited as evidence must cover the lane's AP and equal its units/op. */
    private static void checkEvidence(Contract contract, LaneRow lane, List<Violation> v) {
        Matcher m = AMP_REFERENCE.matcher(lane.evidence());
        while (m.find()) {
            Optional<AmplificationRow> amp = contract.amplification(m.group());
            if (amp.isEmpty()) {
                v.add(new Violation(EVIDENCE, lane.id(), "cites unknown " + m.group()));
            } else if (!amp.get().accessPatterns().contains(lane.accessPattern())
                    || amp.get().totalUnits().compareTo(lane.unitsPerOperation()) != 0) {
                v.add(
                        new Violation(
                                EVIDENCE,
                                lane.id(),
                                m.group()
                                        + " does not cover "
                                        + lane.accessPattern()
                                        + " at "
                                        + CapacityModel.format(lane.unitsPerOperation())
                                        + " units/op"));
            }
        }
    }

    /** Every AP has a lane and every MAP (AP, IDX) pair has a lane on that route. */
    private static List<Violation> coverage(Contract contract) {
        List<Violation> out = new ArrayList<>();
        for (AccessPatternRow ap : contract.accessPatternsById().values()) {
            if (contract.lanes().stream().noneMatch(l -> l.accessPattern().equals(ap.id()))) {
                out.add(new Violation(COVERAGE, ap.id(), "no LANE row for this AP"));
            }
        }
        for (MapRow map : contract.maps()) {
            for (String idx : map.indexes()) {
                boolean covered =
                        contract.lanes().stream()
                                .anyMatch(
                                        l ->
                                                l.accessPattern().equals(map.accessPattern())
                                                        && l.route().equals(idx));
                if (!covered) {
                    out.add(
                            new Violation(
                                    COVERAGE,
                                    map.accessPattern() + "->" + idx,
                                    "mapped route has no LANE row"));
                }
            }
        }
        return out;
    }
}
