package io.streamledger.operators.posting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.model.shard.Sha256;
import io.streamledger.operators.posting.PostingRejectedException.Reason;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** AP10/CS10/CS11: one balanced transaction per fill, explicit rounding, named rejections. */
class FillPostingRulesTest {

    private final FillPostingRules rules =
            new FillPostingRules(RoundingPolicy.DEFAULT, new HouseAccounts(4));

    static TradeFill fill(String side, String qty, String price, String fee) {
        TradeFill f = new TradeFill();
        f.setEventId("e-1");
        f.setTenant("t1");
        f.setTradeId("tr-1");
        f.setFillId("f-1");
        f.setOrderId("o-1");
        f.setAccountId("acct-1");
        f.setSymbol("ACME");
        f.setSide(side);
        f.setQuantity(new BigDecimal(qty));
        f.setPrice(new BigDecimal(price));
        f.setCurrency("USD");
        f.setFee(new BigDecimal(fee));
        f.setFeeCurrency("USD");
        f.setExecutedAtMillis(1_764_496_800_000L);
        f.setOrderVersion(2);
        return f;
    }

    @Test
    void buyDebitsCashCreditsSecuritiesAndBalancesPerAsset() {
        PostingPlan p = rules.plan(fill("BUY", "10", "12.34", "1.00"));
        assertThat(p.isBalanced()).isTrue();
        Map<String, BigDecimal> d = p.deltasByAuthority();
        assertThat(d.get("acct-1/CASH/USD")).isEqualByComparingTo("-124.40"); // 123.40 + 1.00 fee
        assertThat(d.get("acct-1/SEC/ACME")).isEqualByComparingTo("10");
        String clearing = rules.house().clearing("acct-1");
        assertThat(d.get(clearing + "/CASH/USD")).isEqualByComparingTo("123.40");
        assertThat(d.get(clearing + "/SEC/ACME")).isEqualByComparingTo("-10");
        assertThat(p.lines()).extracting(LedgerLine::line).containsExactly(1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void sellMirrorsBuy() {
        PostingPlan p = rules.plan(fill("SELL", "3", "100.00", "0"));
        Map<String, BigDecimal> d = p.deltasByAuthority();
        assertThat(d.get("acct-1/CASH/USD")).isEqualByComparingTo("300.00");
        assertThat(d.get("acct-1/SEC/ACME")).isEqualByComparingTo("-3");
        assertThat(p.lines()).hasSize(4); // no fee lines for a zero fee
        assertThat(p.isBalanced()).isTrue();
    }

    @Test
    void considerationRoundsHalfEvenAndRecordsTheResidual() {
        // 0.125 x 10.01 = 1.25125 -> 1.25 (HALF_EVEN at 2 dp); residual 0.00125
        PostingPlan p = rules.plan(fill("BUY", "0.125", "10.01", "0"));
        assertThat(p.grossExact()).isEqualByComparingTo("1.25125");
        assertThat(p.consideration()).isEqualByComparingTo("1.25");
        assertThat(p.roundingResidual()).isEqualByComparingTo("0.00125");
        assertThat(p.roundingMode()).isEqualTo(RoundingMode.HALF_EVEN);
        // 0.5 x 0.05 = 0.025 -> 0.02 under HALF_EVEN (HALF_UP would give 0.03)
        assertThat(rules.plan(fill("BUY", "0.5", "0.05", "0")).consideration())
                .isEqualByComparingTo("0.02");
    }

    @Test
    void feeSplitPutsTheRoundingRemainderOnTheResidualLine() {
        // 0.05 fee: EXCHANGE 30% = 0.015 -> 0.02 (HALF_EVEN), BROKER (residual) = 0.03
        PostingPlan p = rules.plan(fill("BUY", "1", "1.00", "0.05"));
        Map<String, BigDecimal> d = p.deltasByAuthority();
        assertThat(d.get(rules.house().feeIncome("EXCHANGE", "acct-1") + "/CASH/USD"))
                .isEqualByComparingTo("0.02");
        assertThat(d.get(rules.house().feeIncome("BROKER", "acct-1") + "/CASH/USD"))
                .isEqualByComparingTo("0.03");
        assertThat(p.isBalanced()).isTrue();
    }

    @Test
    void txnIdIsDeterministicPerTenantAndTradeAndMatchesTheCommandServiceFormula() {
        PostingPlan a = rules.plan(fill("BUY", "1", "1.00", "0"));
        PostingPlan b = rules.plan(fill("BUY", "1", "1.00", "0"));
        assertThat(a.txnId()).isEqualTo(b.txnId()).startsWith("t-").hasSize(34);
        assertThat(a.txnId()).isEqualTo("t-" + Sha256.hex("txn\nt1\nTRADE:tr-1").substring(0, 32));
        assertThat(a.sourceId()).isEqualTo("TRADE:tr-1");
    }

    @Test
    void randomFillsAlwaysBalance() {
        Random r = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            String qty = BigDecimal.valueOf(1 + r.nextInt(100_000), r.nextInt(4)).toPlainString();
            String price = BigDecimal.valueOf(1 + r.nextInt(1_000_000), 2).toPlainString();
            String fee = BigDecimal.valueOf(r.nextInt(1_000), 2).toPlainString();
            TradeFill f = fill(r.nextBoolean() ? "BUY" : "SELL", qty, price, fee);
            f.setTradeId("tr-" + i);
            PostingPlan p = rules.plan(f);
            assertThat(p.isBalanced()).as("fill %s", f).isTrue();
            BigDecimal fees =
                    p.lines().stream()
                            .filter(l -> l.role().startsWith("FEE_INCOME"))
                            .map(LedgerLine::amount)
                            .reduce(BigDecimal.ZERO, BigDecimal::add);
            assertThat(fees).isEqualByComparingTo(fee);
        }
    }

    @Test
    void badInputIsRejectedWithANamedReason() {
        assertRejected(f -> f.setSide("HOLD"), Reason.UNKNOWN_SIDE);
        assertRejected(f -> f.setCurrency("XXZ"), Reason.UNKNOWN_CURRENCY);
        assertRejected(f -> f.setFeeCurrency("EUR"), Reason.FEE_CURRENCY_MISMATCH);
        assertRejected(f -> f.setQuantity(BigDecimal.ZERO), Reason.NON_POSITIVE_QUANTITY);
        assertRejected(f -> f.setPrice(new BigDecimal("-1")), Reason.NON_POSITIVE_PRICE);
        assertRejected(f -> f.setFee(new BigDecimal("-0.01")), Reason.NEGATIVE_FEE);
        assertRejected(f -> f.setPrice(new BigDecimal("1.001")), Reason.PRICE_SCALE);
        assertRejected(f -> f.setQuantity(new BigDecimal("0.0000001")), Reason.QUANTITY_SCALE);
        assertRejected(f -> f.setAccountId(null), Reason.MISSING_FIELD);
        assertRejected(f -> f.setOrderId(""), Reason.UNKNOWN_ORDER);
    }

    private void assertRejected(Consumer<TradeFill> change, Reason reason) {
        TradeFill f = fill("BUY", "1", "1.00", "0.10");
        change.accept(f);
        assertThatThrownBy(() -> rules.plan(f))
                .isInstanceOf(PostingRejectedException.class)
                .satisfies(
                        e -> assertThat(((PostingRejectedException) e).reason()).isEqualTo(reason));
    }
}
