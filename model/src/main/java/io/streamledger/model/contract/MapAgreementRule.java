package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * MAP rows agree with the INDEX rows' AP lists in both directions: one MAP row per AP, and the set
 * of (AP, IDX) pairs is the same whichever side states it.
 */
final class MapAgreementRule implements ContractRule {
    static final String RULE = "MAP";

    @Override
    public List<Violation> check(Contract contract) {
        List<Violation> out =
                new ArrayList<>(Duplicates.of(RULE, contract.maps(), MapRow::accessPattern));
        Set<String> apIds = contract.accessPatternsById().keySet();
        Set<String> fromMap = new LinkedHashSet<>();
        Set<String> mappedAps = new LinkedHashSet<>();
        for (MapRow map : contract.maps()) {
            if (!apIds.contains(map.accessPattern())) {
                out.add(new Violation(RULE, map.accessPattern(), "MAP row for unknown AP"));
            }
            mappedAps.add(map.accessPattern());
            for (String idx : map.indexes()) {
                if (contract.index(idx).isEmpty()) {
                    out.add(new Violation(RULE, map.accessPattern(), "maps to unknown " + idx));
                }
                fromMap.add(map.accessPattern() + "->" + idx);
            }
        }
        Set<String> fromIndex = new LinkedHashSet<>();
        for (IndexRow index : contract.indexes()) {
            for (String ap : index.accessPatterns()) {
                fromIndex.add(ap + "->" + index.id());
            }
        }
        for (String pair : fromIndex) {
            if (!fromMap.contains(pair)) {
                out.add(new Violation(RULE, pair, "INDEX row states it, MAP does not"));
            }
        }
        for (String pair : fromMap) {
            if (!fromIndex.contains(pair)) {
                out.add(new Violation(RULE, pair, "MAP row states it, INDEX does not"));
            }
        }
        for (String ap : apIds) {
            if (!mappedAps.contains(ap)) {
                out.add(new Violation(RULE, ap, "AP has no MAP row"));
            }
        }
        return out;
    }
}
