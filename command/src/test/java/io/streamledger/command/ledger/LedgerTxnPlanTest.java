package io.streamledger.command.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.command.api.ApiException;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingSequence;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/** AP10/AP12 ledger transaction planned from what was read, without I/O (CS11). */
class LedgerTxnPlanTest {

    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00.123Z");
    private static final Asset USD = new Asset(AuthorityKey.Kind.CASH, "USD");
    private static final LedgerRules RULES = new LedgerRules(Set.of("HOUSE-"));

    private static LedgerTxnPlan.Txn txn(String reversalOf, PostingLine... lines) {
        return new LedgerTxnPlan.Txn(
                "t1",
                LedgerIds.txnId("t1", "pay-1"),
                "pay-1",
                "rent",
                reversalOf,
                List.of(lines),
                null,
                NOW);
    }

    private static Map<LedgerTxnPlan.AuthKey, Authority> read(
            LedgerTxnPlan.Txn txn, String funded) {
        Map<LedgerTxnPlan.AuthKey, Authority> out = new LinkedHashMap<>();
        for (LedgerTxnPlan.AuthKey k : txn.deltas().keySet()) {
            Authority a = Authority.empty("t1", k.accountId(), k.asset());
            if (k.accountId().equals(funded)) {
                a = a.next(new BigDecimal("500.00"), BigDecimal.ZERO, Map.of());
            }
            out.put(k, a);
        }
        return out;
    }

    private static Map<String, PostingSequence.Counter> counters(
            LedgerTxnPlan.Txn txn, PostingSequence.Counter c) {
        Map<String, PostingSequence.Counter> out = new LinkedHashMap<>();
        txn.byAccount().keySet().forEach(a -> out.put(a, c));
        return out;
    }

    private static final PostingLine DEBIT =
            new PostingLine(1, "A", USD, new BigDecimal("-100.00"));
    private static final PostingLine CREDIT =
            new PostingLine(2, "B", USD, new BigDecimal("100.00"));

    @Test
    void writesAreCountersThenPostingsThenAuthoritiesWithTheResponse() {
        var txn = txn(null, DEBIT, CREDIT);
        var before = read(txn, "A");
        var after = LedgerTxnPlan.guard(txn, before, RULES);
        LedgerTxnPlan plan =
                LedgerTxnPlan.plan(
                        txn, before, after, counters(txn, PostingSequence.Counter.EMPTY), "Ledger");
        List<TransactWriteItem> w = plan.writes();
        assertThat(w).hasSize(6);
        assertThat(plan.firstPosting()).isEqualTo(2);
        assertThat(plan.postings()).isEqualTo(2);
        assertThat(plan.markIndex()).isEqualTo(-1);
        assertThat(w.get(0).put().item().get("SK").s()).isEqualTo("SEQ#MONTH#2026-11");
        var posting = w.get(2).put().item();
        assertThat(posting.get("PK").s()).isEqualTo("TEN#t1#ACCT#A#MONTH#2026-11#BKT#00");
        assertThat(posting.get(LedgerSchema.SEQUENCE).n()).isEqualTo("1");
        assertThat(posting.get(LedgerSchema.LINE_COUNT).n()).isEqualTo("2");
        assertThat(posting.get(LedgerSchema.DESCRIPTION).s()).isEqualTo("rent");
        assertThat(w.get(4).put().item().get(LedgerSchema.AVAILABLE).n()).isEqualTo("400.00");
        assertThat(w.get(4).put().conditionExpression()).isEqualTo("#v = :v");
        assertThat(w.get(5).put().conditionExpression()).isEqualTo("attribute_not_exists(#pk)");
        assertThat(plan.response().status()).isEqualTo(201);
        assertThat(plan.response().body())
                .contains("\"txnId\":\"" + txn.txnId() + "\"")
                .contains("\"bucket\":0,\"sequence\":1");
    }

    @Test
    void anOverdraftIsRejectedBeforeAnyWriteIsPlanned() {
        var txn = txn(null, DEBIT, CREDIT);
        assertThatThrownBy(() -> LedgerTxnPlan.guard(txn, read(txn, "nobody"), RULES))
                .isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(422))
                .satisfies(
                        e ->
                                assertThat(((ApiException) e).code())
                                        .isEqualTo("INSUFFICIENT_AVAILABLE_BALANCE"));
    }

    @Test
    void aFullAccountMonthIs422LedgerMonthLimit() {
        var txn = txn(null, DEBIT, CREDIT);
        var before = read(txn, "A");
        var full = new PostingSequence.Counter(PostingSequence.MAX_POSTINGS_PER_MONTH, 7, 1, 1, 9);
        assertThatThrownBy(
                        () ->
                                LedgerTxnPlan.plan(
                                        txn,
                                        before,
                                        LedgerTxnPlan.guard(txn, before, RULES),
                                        counters(txn, full),
                                        "Ledger"))
                .isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(422))
                .satisfies(
                        e -> assertThat(((ApiException) e).code()).isEqualTo("LEDGER_MONTH_LIMIT"));
    }

    @Test
    void aReversalLinksTheOriginalAndWritesItsDurableRecordLast() {
        var txn = txn("pay-0", DEBIT, CREDIT);
        var before = read(txn, "A");
        LedgerTxnPlan plan =
                LedgerTxnPlan.plan(
                        txn,
                        before,
                        LedgerTxnPlan.guard(txn, before, RULES),
                        counters(txn, PostingSequence.Counter.EMPTY),
                        "Ledger");
        assertThat(plan.markIndex()).isEqualTo(plan.writes().size() - 1);
        var record = plan.writes().get(plan.markIndex()).put();
        assertThat(record.tableName()).isEqualTo("Ledger");
        assertThat(record.conditionExpression()).isEqualTo("attribute_not_exists(#pk)");
        assertThat(record.item().get("PK").s())
                .isEqualTo("TEN#t1#TXN#" + LedgerIds.txnId("t1", "pay-0"));
        assertThat(record.item().get("SK").s()).isEqualTo("REVERSAL");
        assertThat(record.item().get(LedgerSchema.REVERSED_BY).s()).isEqualTo(txn.txnId());
        assertThat(record.item().get(LedgerSchema.REVERSAL_KIND).s()).isEqualTo("REVERSAL");
        assertThat(record.item()).doesNotContainKey("expiresAt");
        assertThat(
                        plan.writes()
                                .get(plan.firstPosting())
                                .put()
                                .item()
                                .get(LedgerSchema.REVERSAL_OF)
                                .s())
                .isEqualTo(LedgerIds.txnId("t1", "pay-0"));
        assertThat(plan.response().body())
                .contains("\"reversalOfTxnId\":\"" + LedgerIds.txnId("t1", "pay-0") + "\"");
    }

    @Test
    void aBustPutsWhatTheFillConsumedBackOnHoldInTheSameAuthorityWrite() {
        String bust = LedgerIds.bustSourceId("o-1:f-1");
        var back = new PostingLine(1, "A", USD, new BigDecimal("100.00"));
        var contra = new PostingLine(2, "HOUSE-CLEARING-3", USD, new BigDecimal("-100.00"));
        var rehold =
                new LedgerTxnPlan.Rehold(
                        new LedgerTxnPlan.AuthKey("A", USD), new BigDecimal("100.00"));
        var txn =
                new LedgerTxnPlan.Txn(
                        "t1",
                        LedgerIds.txnId("t1", bust),
                        bust,
                        null,
                        LedgerIds.tradeSourceId("o-1:f-1"),
                        List.of(back, contra),
                        null,
                        NOW,
                        rehold);
        var before = read(txn, "nobody");
        var after = LedgerTxnPlan.guard(txn, before, RULES);
        Authority a = after.get(new LedgerTxnPlan.AuthKey("A", USD));
        assertThat(a.posted()).isEqualByComparingTo("100.00");
        assertThat(a.reserved()).isEqualByComparingTo("100.00");
        assertThat(a.available()).isEqualByComparingTo("0.00");
        LedgerTxnPlan plan =
                LedgerTxnPlan.plan(
                        txn, before, after, counters(txn, PostingSequence.Counter.EMPTY), "Ledger");
        var record = plan.writes().get(plan.markIndex()).put().item();
        assertThat(record.get(LedgerSchema.REVERSAL_KIND).s()).isEqualTo("BUST");
        assertThat(record.get(LedgerSchema.TXN_ID).s())
                .isEqualTo(LedgerIds.tradeTxnId("t1", "o-1:f-1"));
    }

    @Test
    void aReholdOnAnAuthorityTheTxnDoesNotPostIsADefect() {
        var txn =
                new LedgerTxnPlan.Txn(
                        "t1",
                        "t-x",
                        "BUST:o-1:f-1",
                        null,
                        "TRADE:o-1:f-1",
                        List.of(DEBIT, CREDIT),
                        null,
                        NOW,
                        new LedgerTxnPlan.Rehold(
                                new LedgerTxnPlan.AuthKey("C", USD), BigDecimal.ONE));
        assertThatThrownBy(() -> LedgerTxnPlan.guard(txn, read(txn, "A"), RULES))
                .isInstanceOf(IllegalStateException.class);
    }
}
