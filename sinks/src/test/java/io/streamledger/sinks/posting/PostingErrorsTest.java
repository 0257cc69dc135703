package io.streamledger.sinks.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import io.streamledger.operators.posting.FillPostingRules;
import io.streamledger.operators.posting.PostingPlan;
import io.streamledger.operators.posting.PostingTransactionPlan;
import io.streamledger.operators.posting.TradeFill;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * What a cancelled posting transaction means (AP09/AP10) while an inbox reshard runs: the other
 * version's receipt absence check failing is a duplicate, like the receipt's own condition.
 */
class PostingErrorsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    private final FillPostingRules rules =
            new FillPostingRules(RoundingPolicy.DEFAULT, new HouseAccounts(4));

    private PostingTransactionPlan dualPlan() {
        TradeFill f = new TradeFill();
        f.setEventId("e-1");
        f.setTenant("t1");
        f.setTradeId("tr-1");
        f.setFillId("f-1");
        f.setOrderId("o-1");
        f.setAccountId("acct-1");
        f.setSymbol("ACME");
        f.setSide("BUY");
        f.setQuantity(new BigDecimal("10"));
        f.setPrice(new BigDecimal("12.34"));
        f.setCurrency("USD");
        f.setFee(new BigDecimal("1.00"));
        f.setFeeCurrency("USD");
        f.setExecutedAtMillis(NOW.toEpochMilli());
        f.setOrderVersion(2);
        f.setAdmittedAtMillis(NOW.toEpochMilli());
        PostingPlan p = rules.plan(f);
        Map<String, PostingSequence.Counter> counters = new HashMap<>();
        for (String a : PostingTransactionPlan.accounts(p)) {
            counters.put(a, PostingSequence.Counter.EMPTY);
        }
        ShardMapState dual =
                ShardMapState.initial(ShardMap.INBOX)
                        .start(17, NOW.plusSeconds(60), NOW, Duration.ofSeconds(30));
        return PostingTransactionPlan.build(
                f,
                p,
                counters,
                new PostingTransactionPlan.ReceiptPolicy("posting", Duration.ofDays(30)),
                NOW,
                (a, l, e, t) -> 100,
                1000,
                dual);
    }

    private static TransactionCanceledException cancelledAt(int size, int index) {
        List<CancellationReason> reasons = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            reasons.add(
                    CancellationReason.builder()
                            .code(i == index ? "ConditionalCheckFailed" : "None")
                            .build());
        }
        return TransactionCanceledException.builder().cancellationReasons(reasons).build();
    }

    @Test
    void theOtherVersionsReceiptExistingIsADuplicate() {
        PostingTransactionPlan tx = dualPlan();
        int last = tx.items().size() - 1;
        assertThat(tx.items().get(last)).isInstanceOf(PostingTransactionPlan.ReceiptAbsent.class);
        assertThat(PostingErrors.classify(tx, cancelledAt(tx.items().size(), last)))
                .isEqualTo(PostingErrors.Verdict.DUPLICATE);
        assertThat(PostingErrors.classify(tx, cancelledAt(tx.items().size(), 0)))
                .isEqualTo(PostingErrors.Verdict.DUPLICATE);
    }

    @Test
    void aCounterConditionIsStillAConflictAndAPostingRowStillAnInvariant() {
        PostingTransactionPlan tx = dualPlan();
        assertThat(PostingErrors.classify(tx, cancelledAt(tx.items().size(), tx.postingsEnd())))
                .isEqualTo(PostingErrors.Verdict.COUNTER_CONFLICT);
        assertThat(PostingErrors.classify(tx, cancelledAt(tx.items().size(), 1)))
                .isEqualTo(PostingErrors.Verdict.POSTING_EXISTS);
    }
}
