package io.streamledger.operators.recon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.change.Transport;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.order.OrderSide;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AP14 inputs: trade items → fills, posting-job postings → trading lines, SEC authorities. */
class ReconEventsTest {

    private static ChangeRecord insert(String pk, String sk, Map<String, AttributeValue> img) {
        return new ChangeRecord(
                "e",
                Operation.INSERT,
                "T",
                Map.of("PK", new AttributeValue.S(pk), "SK", new AttributeValue.S(sk)),
                null,
                img,
                "1",
                Instant.parse("2026-11-30T10:00:05Z"),
                null,
                null,
                Transport.DYNAMODB_STREAMS);
    }

    private static AttributeValue s(String v) {
        return new AttributeValue.S(v);
    }

    private static AttributeValue n(String v) {
        return new AttributeValue.N(v);
    }

    @Test
    void tradeItemIsAFillAtItsExecutionTime() {
        Map<String, AttributeValue> i = new HashMap<>();
        i.put("tenant", s("t1"));
        i.put("tradeId", s("tr1"));
        i.put("account", s("A"));
        i.put("symbol", s("ACME"));
        i.put("side", s("BUY"));
        i.put("quantity", n("10"));
        i.put("price", n("12.5"));
        i.put("currency", s("USD"));
        i.put("fee", n("1"));
        i.put("executedAt", s("2026-11-30T10:00:00Z"));
        ReconEvent e =
                ReconEvents.fromExecution(insert("TEN#t1#ORDER#o", "TRADE#x#tr1", i)).orElseThrow();
        assertThat(e.kind).isEqualTo(ReconEvent.Kind.FILL);
        assertThat(e.eventTimeMillis)
                .isEqualTo(Instant.parse("2026-11-30T10:00:00Z").toEpochMilli());
        assertThat(e.fill().price()).isEqualByComparingTo(new BigDecimal("12.5"));
        assertThat(e.fill().side()).isEqualTo(OrderSide.BUY);
        i.remove("currency");
        assertThatThrownBy(
                        () -> ReconEvents.fromExecution(insert("TEN#t1#ORDER#o", "TRADE#x#tr1", i)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'currency'");
    }

    private static ChangeRecord modify(String pk, String sk, Map<String, AttributeValue> img) {
        return new ChangeRecord(
                "m",
                Operation.MODIFY,
                "T",
                Map.of("PK", new AttributeValue.S(pk), "SK", new AttributeValue.S(sk)),
                null,
                img,
                "2",
                Instant.parse("2026-11-30T11:00:05Z"),
                null,
                null,
                Transport.DYNAMODB_STREAMS);
    }

    @Test
    void aTradesOnlyModifyThatCountsIsItsBustMark() {
        Map<String, AttributeValue> i = new HashMap<>();
        i.put("tenant", s("t1"));
        i.put("tradeId", s("o:f1"));
        i.put("orderId", s("o"));
        i.put("orderVersion", n("2"));
        i.put("account", s("A"));
        i.put("symbol", s("ACME"));
        i.put("side", s("BUY"));
        i.put("quantity", n("10"));
        i.put("price", n("12.5"));
        i.put("currency", s("USD"));
        i.put("executedAt", s("2026-11-30T10:00:00Z"));
        assertThat(ReconEvents.fromExecution(modify("TEN#t1#ORDER#o", "TRADE#x#o:f1", i)))
                .isEmpty();
        i.put("bustOrderVersion", n("4"));
        ReconEvent mark =
                ReconEvents.fromExecution(modify("TEN#t1#ORDER#o", "TRADE#x#o:f1", i))
                        .orElseThrow();
        assertThat(mark.bustOrderVersion).isEqualTo(4);
        assertThat(mark.fillCountsAt(3)).isTrue();
        assertThat(mark.fillCountsAt(4)).isFalse();
        assertThat(mark.fillCountsAt(1)).isFalse();
    }

    @Test
    void onlyPostingsWithARoleAreTradingLines() {
        Map<String, AttributeValue> i = new HashMap<>();
        i.put("tenant", s("t1"));
        i.put("txnId", s("t-1"));
        i.put("line", n("1"));
        i.put("accountId", s("A"));
        i.put("assetType", s("CASH"));
        i.put("asset", s("USD"));
        i.put("amount", n("-125"));
        i.put("recordedAt", s("2026-11-30T10:00:01Z"));
        assertThat(ReconEvents.fromLedger(insert("P", "POST#x", i))).isEmpty();
        i.put("role", s("CONSIDERATION"));
        i.put("effectiveAt", s("2026-11-30T10:00:00Z"));
        ReconEvent e = ReconEvents.fromLedger(insert("P", "POST#x", i)).orElseThrow();
        assertThat(e.kind).isEqualTo(ReconEvent.Kind.POSTING);
        assertThat(e.posting().assetType()).isEqualTo(AuthorityKey.Kind.CASH);
        assertThat(e.posting().amount()).isEqualByComparingTo(new BigDecimal("-125"));
        assertThat(e.eventTimeMillis)
                .isEqualTo(Instant.parse("2026-11-30T10:00:00Z").toEpochMilli());
        assertThat(ReconEvents.fromLedger(insert("P", "AUTH#CASH#USD", i))).isEmpty();
    }

    @Test
    void expectedClientMovementUsesCurrencyScaleHalfEven() {
        ReconWindowFunction f =
                new ReconWindowFunction(
                        ReconConfig.of(
                                Duration.ofMinutes(1), Duration.ZERO, Duration.ofSeconds(30)));
        // 3 × 0.125 = 0.375 -> 0.38 (HALF_EVEN on the 2nd decimal)
        FillFact buy = fill(OrderSide.BUY, "3", "0.125", new BigDecimal("0.10"));
        var x = f.expected(buy);
        assertThat(x.cash()).isEqualByComparingTo(new BigDecimal("-0.48"));
        assertThat(x.securities()).isEqualByComparingTo(new BigDecimal("3"));
        // 0.125 -> 0.12 (HALF_EVEN)
        FillFact sell = fill(OrderSide.SELL, "1", "0.125", null);
        assertThat(f.expected(sell).cash()).isEqualByComparingTo(new BigDecimal("0.12"));
        assertThat(f.expected(sell).securities()).isEqualByComparingTo(new BigDecimal("-1"));
    }

    @Test
    void batchIdIsAFunctionOfTheWindow() {
        long start = Instant.parse("2026-11-30T09:15:00Z").toEpochMilli();
        assertThat(ReconWindowFunction.batchId(start, 900_000))
                .isEqualTo("RECON-20261130T091500Z-900s");
    }

    private static FillFact fill(OrderSide side, String qty, String price, BigDecimal fee) {
        return new FillFact(
                "tr", "A", "NVDA", side, new BigDecimal(qty), new BigDecimal(price), "USD", fee);
    }
}
