package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares every figure of the seed's capacity render table (standard_write_units …
 * ledger_bucket_max_mib) with {@link CapacityModel}'s recomputation, numerically, by Result ID.
 */
final class RenderFiguresRule {
    static final String RULE = "RENDER";

    List<FigureCheck> compare(RenderTable render) {
        Map<String, RenderRow> seed = new LinkedHashMap<>();
        render.rows().forEach(r -> seed.putIfAbsent(r.resultId(), r));
        List<FigureCheck> out = new ArrayList<>();
        for (Figure figure : CapacityModel.figures().values()) {
            RenderRow row = seed.get(figure.id());
            if (row == null) {
                out.add(
                        new FigureCheck(
                                figure.id(), figure.value(), null, FigureCheck.Status.MISSING));
            } else {
                boolean same = row.value().compareTo(figure.value()) == 0;
                out.add(
                        new FigureCheck(
                                figure.id(),
                                figure.value(),
                                row.value(),
                                same ? FigureCheck.Status.OK : FigureCheck.Status.MISMATCH));
            }
        }
        Set<String> known = CapacityModel.figures().keySet();
        for (RenderRow row : seed.values()) {
            if (!known.contains(row.resultId())) {
                out.add(
                        new FigureCheck(
                                row.resultId(), null, row.value(), FigureCheck.Status.EXTRA));
            }
        }
        return out;
    }

    List<Violation> check(RenderTable render) {
        List<Violation> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (RenderRow row : render.rows()) {
            if (!seen.add(row.resultId())) {
                out.add(new Violation(RULE, row.resultId(), "Result ID occurs more than once"));
            }
        }
        for (FigureCheck c : compare(render)) {
            switch (c.status()) {
                case OK -> {}
                case MISMATCH ->
                        out.add(
                                new Violation(
                                        RULE,
                                        c.id(),
                                        "seed "
                                                + CapacityModel.format(c.seed())
                                                + ", recomputed "
                                                + CapacityModel.format(c.recomputed())));
                case MISSING ->
                        out.add(new Violation(RULE, c.id(), "missing from the render table"));
                case EXTRA ->
                        out.add(
                                new Violation(
                                        RULE, c.id(), "not a figure the capacity model computes"));
            }
        }
        return out;
    }
}
