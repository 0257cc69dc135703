package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The INDEX-row drift guard against the code's {@link DeclaredIndex} list (IDX01–IDX19). */
class DeclaredIndexCrossCheckTest {
    private static final Contract CONTRACT = ContractResources.contract();

    /** Test data: the seed's IDX09/IDX10/IDX17 written out by hand, the rest copied by row. */
    private static List<DeclaredIndex> declared() {
        List<DeclaredIndex> out = new ArrayList<>();
        for (IndexRow row : CONTRACT.indexes()) {
            switch (row.id()) {
                case "IDX09" ->
                        out.add(
                                new DeclaredIndex(
                                        "IDX09",
                                        "BASE",
                                        "Inbox",
                                        "CONSUMER#name#V#v#SHARD#h(eventId)%13",
                                        "EVENT#id",
                                        List.of("AP09")));
                case "IDX10" ->
                        out.add(
                                new DeclaredIndex(
                                        "IDX10",
                                        "BASE",
                                        "Ledger",
                                        "TEN#t#ACCT#a#MONTH#yyyy-mm#BKT#nn",
                                        "POST#at#txn#line",
                                        List.of("AP10", "AP11")));
                case "IDX17" ->
                        out.add(
                                new DeclaredIndex(
                                        "IDX17",
                                        "GSI3",
                                        "Context",
                                        "SERVICE#svc#READY#shard",
                                        "DUE#at#eventId",
                                        List.of("AP16")));
                default ->
                        out.add(
                                new DeclaredIndex(
                                        row.id(),
                                        row.kind(),
                                        row.table(),
                                        row.pk(),
                                        row.sk(),
                                        row.accessPatterns()));
            }
        }
        return out;
    }

    @Test
    void matchingDeclarationsPass() {
        assertThat(ContractVerifier.crossCheck(CONTRACT, declared())).isEmpty();
    }

    @Test
    void undeclaredIndexIsReported() {
        List<DeclaredIndex> d = declared();
        d.removeIf(x -> x.id().equals("IDX12"));
        assertThat(ContractVerifier.crossCheck(CONTRACT, d))
                .extracting(Violation::toString)
                .containsExactly("INDEX_CODE IDX12: not declared in code");
    }

    @Test
    void duplicateDeclarationIsReported() {
        List<DeclaredIndex> d = declared();
        d.add(d.get(0));
        assertThat(ContractVerifier.crossCheck(CONTRACT, d))
                .extracting(Violation::toString)
                .containsExactly("INDEX_CODE IDX01: declared 2 times in code");
    }

    @Test
    void indexOnlyInCodeIsReported() {
        List<DeclaredIndex> d = declared();
        d.add(new DeclaredIndex("IDX20", "GSI1", "Orders", "X#a", "Y#b", List.of("AP01")));
        assertThat(ContractVerifier.crossCheck(CONTRACT, d))
                .extracting(Violation::toString)
                .containsExactly("INDEX_CODE IDX20: declared in code but not in the contract");
    }

    @Test
    void everyFieldIsCompared() {
        assertThat(
                        withIdx09(
                                "GSI1",
                                "Inbox",
                                "CONSUMER#name#V#v#SHARD#h(eventId)%13",
                                "EVENT#id",
                                List.of("AP09")))
                .singleElement()
                .asString()
                .contains("kind");
        assertThat(
                        withIdx09(
                                "BASE",
                                "Inbox2",
                                "CONSUMER#name#V#v#SHARD#h(eventId)%13",
                                "EVENT#id",
                                List.of("AP09")))
                .singleElement()
                .asString()
                .contains("table");
        assertThat(
                        withIdx09(
                                "BASE",
                                "Inbox",
                                "CONSUMER#name#V#v#SHARD#h(eventId)%7",
                                "EVENT#id",
                                List.of("AP09")))
                .singleElement()
                .asString()
                .contains("pk");
        assertThat(
                        withIdx09(
                                "BASE",
                                "Inbox",
                                "CONSUMER#name#V#v#SHARD#h(eventId)%13",
                                "EVENT#eventId",
                                List.of("AP09")))
                .singleElement()
                .asString()
                .contains("sk");
        assertThat(
                        withIdx09(
                                "BASE",
                                "Inbox",
                                "CONSUMER#name#V#v#SHARD#h(eventId)%13",
                                "EVENT#id",
                                List.of("AP09", "AP13")))
                .singleElement()
                .asString()
                .contains("APs");
    }

    private static List<Violation> withIdx09(
            String kind, String table, String pk, String sk, List<String> aps) {
        List<DeclaredIndex> d = declared();
        d.replaceAll(
                x ->
                        x.id().equals("IDX09")
                                ? new DeclaredIndex("IDX09", kind, table, pk, sk, aps)
                                : x);
        return ContractVerifier.crossCheck(CONTRACT, d);
    }
}
