package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * IDX01–IDX19 drift guard: each contract INDEX row has exactly one {@link DeclaredIndex} in code
 * with the same id, kind, table, PK/SK patterns and AP list, and the code declares nothing else.
 */
final class DeclaredIndexCrossCheck {
    static final String RULE = "INDEX_CODE";

    List<Violation> check(Contract contract, Collection<DeclaredIndex> declared) {
        List<Violation> out = new ArrayList<>();
        for (IndexRow row : contract.indexes()) {
            List<DeclaredIndex> matches =
                    declared.stream().filter(d -> d.id().equals(row.id())).toList();
            if (matches.isEmpty()) {
                out.add(new Violation(RULE, row.id(), "not declared in code"));
                continue;
            }
            if (matches.size() > 1) {
                out.add(
                        new Violation(
                                RULE, row.id(), "declared " + matches.size() + " times in code"));
            }
            DeclaredIndex d = matches.get(0);
            same(out, row.id(), "kind", row.kind(), d.kind());
            same(out, row.id(), "table", row.table(), d.table());
            same(out, row.id(), "pk", row.pk(), d.pk());
            same(out, row.id(), "sk", row.sk(), d.sk());
            same(out, row.id(), "APs", row.accessPatterns(), d.accessPatterns());
        }
        for (DeclaredIndex d : declared) {
            if (contract.index(d.id()).isEmpty()) {
                out.add(new Violation(RULE, d.id(), "declared in code but not in the contract"));
            }
        }
        return out;
    }

    /**
     * Each fallback shape names a contract row, keeps its kind, table, SK and APs, and only extends
     * its PK with a {@code #SHARD#} suffix (seed: {@code PK=SYM#X} into {@code
     * PK=SYM#X#SHARD#h(eventId)%N}).
     */
    List<Violation> checkFallbacks(Contract contract, Collection<DeclaredIndex> fallbacks) {
        List<Violation> out = new ArrayList<>();
        for (DeclaredIndex f : fallbacks) {
            IndexRow row = contract.index(f.id()).orElse(null);
            if (row == null) {
                out.add(new Violation(RULE, f.id(), "fallback shape has no contract row"));
                continue;
            }
            same(out, f.id(), "fallback kind", row.kind(), f.kind());
            same(out, f.id(), "fallback table", row.table(), f.table());
            same(out, f.id(), "fallback sk", row.sk(), f.sk());
            same(out, f.id(), "fallback APs", row.accessPatterns(), f.accessPatterns());
            if (!f.pk().startsWith(row.pk() + "#SHARD#")) {
                out.add(
                        new Violation(
                                RULE,
                                f.id(),
                                "fallback pk '"
                                        + f.pk()
                                        + "' does not extend '"
                                        + row.pk()
                                        + "' with #SHARD#"));
            }
        }
        return out;
    }

    private static void same(
            List<Violation> out, String id, String field, Object contract, Object code) {
        if (!Objects.equals(contract, code)) {
            out.add(
                    new Violation(
                            RULE, id, field + " contract '" + contract + "', code '" + code + "'"));
        }
    }
}
