package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * AP/IDX traceability (seed "Key and index design with AP traceability"): every AP is answered by
 * at least one INDEX row and every INDEX row names only known APs, without repeats.
 */
final class AccessPatternIndexRule implements ContractRule {
    static final String RULE = "AP_INDEX";

    @Override
    public List<Violation> check(Contract contract) {
        List<Violation> out = new ArrayList<>();
        out.addAll(Duplicates.of(RULE, contract.accessPatterns(), AccessPatternRow::id));
        out.addAll(Duplicates.of(RULE, contract.indexes(), IndexRow::id));
        Set<String> apIds = contract.accessPatternsById().keySet();
        Set<String> served = new HashSet<>();
        for (IndexRow index : contract.indexes()) {
            if (new HashSet<>(index.accessPatterns()).size() != index.accessPatterns().size()) {
                out.add(new Violation(RULE, index.id(), "AP list repeats an AP"));
            }
            for (String ap : index.accessPatterns()) {
                if (!apIds.contains(ap)) {
                    out.add(new Violation(RULE, index.id(), "serves unknown " + ap));
                }
                served.add(ap);
            }
        }
        for (String ap : apIds) {
            if (!served.contains(ap)) {
                out.add(new Violation(RULE, ap, "no INDEX row serves this AP"));
            }
        }
        return out;
    }
}
