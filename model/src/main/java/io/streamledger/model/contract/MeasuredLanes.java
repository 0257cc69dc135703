package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Measured lane figures (rate, units per operation, max-key share per LANE id, e.g. from the run
 * command's per-AP metrics) judged by the seed's lane rule: {@code rate x units x max-key share /
 * shards} against the target (80% of the partition ceiling), shards as the contract has them (1
 * where it says NA).
 */
public final class MeasuredLanes {
    private static final Pattern SEPARATOR = Pattern.compile("\\|");

    /** One measured line: {@code <lane>|<rate/s>|<units per op>|<max-key share>}. */
    public record Measured(
            String laneId, BigDecimal rate, BigDecimal unitsPerOperation, BigDecimal maxKeyShare) {
        public Measured {
            if (maxKeyShare.signum() < 0 || maxKeyShare.compareTo(BigDecimal.ONE) > 0) {
                throw new IllegalArgumentException(laneId + ": max-key share must be in [0, 1]");
            }
            if (rate.signum() < 0 || unitsPerOperation.signum() < 0) {
                throw new IllegalArgumentException(laneId + ": rate and units must be >= 0");
            }
        }

        /** The file form of this line. */
        public String line() {
            return String.join(
                    "|",
                    laneId,
                    rate.toPlainString(),
                    unitsPerOperation.toPlainString(),
                    maxKeyShare.toPlainString());
        }
    }

    /** A lane's contract beside its measurement, with the rule's verdict. */
    public record Verdict(
            LaneRow lane,
            Measured measured,
            BigDecimal shards,
            BigDecimal loadPerShard,
            BigDecimal target,
            boolean feasible) {
        public String state() {
            return feasible ? "FEASIBLE" : "OVER_TARGET";
        }
    }

    private MeasuredLanes() {}

    /** Parses measured lines; {@code #} starts a comment, blank lines are skipped. */
    public static List<Measured> parse(String text) {
        List<Measured> out = new ArrayList<>();
        int n = 0;
        for (String raw : text.split("\n", -1)) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = SEPARATOR.split(line, -1);
            if (f.length != 4) {
                throw new IllegalArgumentException(
                        "line " + n + ": want lane|rate|units|share, got '" + line + "'");
            }
            try {
                out.add(
                        new Measured(
                                f[0].strip(),
                                new BigDecimal(f[1].strip()),
                                new BigDecimal(f[2].strip()),
                                new BigDecimal(f[3].strip())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "line " + n + ": not a number in '" + line + "'");
            }
        }
        return out;
    }

    /** The verdict for every measured lane, in the contract's lane order. */
    public static List<Verdict> assess(Contract contract, List<Measured> measured) {
        List<Verdict> out = new ArrayList<>();
        for (LaneRow lane : contract.lanes()) {
            measured.stream()
                    .filter(m -> m.laneId().equals(lane.id()))
                    .findFirst()
                    .ifPresent(m -> out.add(assess(lane, m)));
        }
        for (Measured m : measured) {
            if (contract.lanes().stream().noneMatch(l -> l.id().equals(m.laneId()))) {
                throw new IllegalArgumentException("no lane " + m.laneId() + " in the contract");
            }
        }
        return out;
    }

    static Verdict assess(LaneRow lane, Measured m) {
        BigDecimal shards = lane.shards() == null ? BigDecimal.ONE : lane.shards();
        BigDecimal hottestKey = m.rate().multiply(m.unitsPerOperation()).multiply(m.maxKeyShare());
        BigDecimal load = CapacityModel.perShard(hottestKey, shards);
        BigDecimal target = CapacityModel.targetUnitsPerSecond(lane.unitKind());
        return new Verdict(lane, m, shards, load, target, load.compareTo(target) <= 0);
    }
}
