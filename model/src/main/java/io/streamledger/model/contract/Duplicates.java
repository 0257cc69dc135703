package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Reports ids that occur more than once in a list of rows. */
final class Duplicates {
    private Duplicates() {}

    static <T> List<Violation> of(String rule, List<T> rows, Function<T, String> id) {
        Set<String> seen = new HashSet<>();
        List<Violation> out = new ArrayList<>();
        for (T row : rows) {
            String key = id.apply(row);
            if (!seen.add(key)) {
                out.add(new Violation(rule, key, "id occurs more than once"));
            }
        }
        return out;
    }
}
