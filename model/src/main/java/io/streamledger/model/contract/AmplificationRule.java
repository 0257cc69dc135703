package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * AMP01–AMP18: each total equals base x base-multiplier + GSI x GSI-multiplier, multipliers follow
 * the seed (2 only for transaction targets, 1 for asynchronous GSI entries), and every row matches
 * the capacity model's own recomputation of the scenario.
 */
final class AmplificationRule implements ContractRule {
    static final String FORMULA = "AMP_TOTAL";
    static final String MULTIPLIER = "AMP_MULTIPLIER";
    static final String MODEL = "AMP_MODEL";
    static final String REFERENCE = "AMP_AP";

    private static final Pattern BASE_TARGETS = Pattern.compile("(\\d+) base targets");
    private static final Pattern ASYNC_ENTRIES = Pattern.compile("(\\d+) async GSI entries");

    @Override
    public List<Violation> check(Contract contract) {
        List<Violation> out =
                new ArrayList<>(
                        Duplicates.of(MODEL, contract.amplifications(), AmplificationRow::id));
        Map<String, AmplificationBasis> basis = CapacityModel.amplificationBasis();
        Set<String> apIds = contract.accessPatternsById().keySet();
        for (AmplificationRow row : contract.amplifications()) {
            BigDecimal total =
                    row.baseUnits()
                            .multiply(row.baseMultiplier())
                            .add(row.gsiUnits().multiply(row.gsiMultiplier()));
            if (total.compareTo(row.totalUnits()) != 0) {
                out.add(
                        new Violation(
                                FORMULA,
                                row.id(),
                                "total "
                                        + CapacityModel.format(row.totalUnits())
                                        + " but base x multiplier + GSI x multiplier = "
                                        + CapacityModel.format(total)));
            }
            if (row.gsiMultiplier().compareTo(CapacityModel.GSI_WRITE_MULTIPLIER) != 0) {
                out.add(
                        new Violation(
                                MULTIPLIER, row.id(), "asynchronous GSI multiplier must be 1"));
            }
            if (row.baseMultiplier().compareTo(CapacityModel.ORDINARY_MULTIPLIER) != 0
                    && row.baseMultiplier().compareTo(CapacityModel.TRANSACTION_FACTOR) != 0) {
                out.add(new Violation(MULTIPLIER, row.id(), "base multiplier must be 1 or 2"));
            }
            for (String ap : row.accessPatterns()) {
                if (!apIds.contains(ap)) {
                    out.add(new Violation(REFERENCE, row.id(), "unknown " + ap));
                }
            }
            AmplificationBasis expected = basis.get(row.id());
            if (expected == null) {
                out.add(new Violation(MODEL, row.id(), "no such scenario in the capacity model"));
                continue;
            }
            compareWithModel(row, expected, out);
        }
        Set<String> present = new HashSet<>();
        contract.amplifications().forEach(a -> present.add(a.id()));
        for (String id : basis.keySet()) {
            if (!present.contains(id)) {
                out.add(new Violation(MODEL, id, "scenario missing from the contract"));
            }
        }
        return out;
    }

    private static void compareWithModel(
            AmplificationRow row, AmplificationBasis expected, List<Violation> out) {
        if (!row.accessPatterns().equals(expected.accessPatterns())) {
            out.add(
                    new Violation(
                            MODEL,
                            row.id(),
                            "APs "
                                    + row.accessPatterns()
                                    + ", model "
                                    + expected.accessPatterns()));
        }
        if (!row.scenario().equals(expected.scenario())) {
            out.add(
                    new Violation(
                            MODEL,
                            row.id(),
                            "scenario '"
                                    + row.scenario()
                                    + "', model '"
                                    + expected.scenario()
                                    + "'"));
        }
        field(row, "base units", row.baseUnits(), expected.baseUnits(), out);
        field(row, "base multiplier", row.baseMultiplier(), expected.baseMultiplier(), out);
        field(row, "GSI units", row.gsiUnits(), expected.gsiUnits(), out);
        field(row, "GSI multiplier", row.gsiMultiplier(), expected.gsiMultiplier(), out);
        field(row, "total units", row.totalUnits(), expected.totalUnits(), out);
        Matcher targets = BASE_TARGETS.matcher(row.consequence());
        if (targets.find() && Integer.parseInt(targets.group(1)) != expected.baseTargets()) {
            out.add(
                    new Violation(
                            MODEL,
                            row.id(),
                            "consequence names "
                                    + targets.group(1)
                                    + " base targets, model writes "
                                    + expected.baseTargets()));
        }
        Matcher entries = ASYNC_ENTRIES.matcher(row.consequence());
        if (entries.find()
                && new BigDecimal(entries.group(1)).compareTo(expected.gsiUnits()) != 0) {
            out.add(
                    new Violation(
                            MODEL,
                            row.id(),
                            "consequence names "
                                    + entries.group(1)
                                    + " async GSI entries, model has "
                                    + CapacityModel.format(expected.gsiUnits())));
        }
    }

    private static void field(
            AmplificationRow row,
            String name,
            BigDecimal actual,
            BigDecimal expected,
            List<Violation> out) {
        if (actual.compareTo(expected) != 0) {
            out.add(
                    new Violation(
                            MODEL,
                            row.id(),
                            name
                                    + " "
                                    + CapacityModel.format(actual)
                                    + ", recomputed "
                                    + CapacityModel.format(expected)));
        }
    }
}
