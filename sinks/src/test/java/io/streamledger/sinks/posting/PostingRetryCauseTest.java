package io.streamledger.sinks.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.operators.posting.FillPostingRules;
import io.streamledger.operators.posting.PostingPlan;
import io.streamledger.operators.posting.PostingTransactionPlan;
import io.streamledger.operators.posting.TradeFill;
import io.streamledger.operators.posting.TradeFills;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/** Each retried posting attempt (AP09/AP10/AP12) is counted by the item or error that caused it. */
class PostingRetryCauseTest {

    private final FillPostingRules rules =
            new FillPostingRules(RoundingPolicy.DEFAULT, new HouseAccounts(4));
    private final PostingTransactionPlan tx = plan();

    private PostingTransactionPlan plan() {
        TradeFill f =
                TradeFills.fromJson(
                        "{\"eventId\":\"e-1\",\"tenant\":\"t1\",\"tradeId\":\"tr-1\","
                                + "\"fillId\":\"f-1\",\"orderId\":\"o-1\",\"accountId\":\"acct-1\","
                                + "\"symbol\":\"ACME\",\"side\":\"BUY\",\"quantity\":10,"
                                + "\"price\":12.34,\"currency\":\"USD\",\"fee\":1.00,"
                                + "\"feeCurrency\":\"USD\",\"executedAtMillis\":1764496800000,"
                                + "\"orderVersion\":2}");
        PostingPlan p = rules.plan(f);
        Map<String, PostingSequence.Counter> counters = new HashMap<>();
        PostingTransactionPlan.accounts(p)
                .forEach(a -> counters.put(a, new PostingSequence.Counter(1, 0, 1, 100, 1)));
        return PostingTransactionPlan.build(
                f,
                p,
                counters,
                new PostingTransactionPlan.ReceiptPolicy("posting", Duration.ofDays(7)),
                Instant.parse("2026-11-30T10:00:01Z"),
                (a, l, e, t) -> 100,
                PostingSequence.MAX_POSTINGS_PER_MONTH);
    }

    private int indexOf(Class<?> type) {
        for (int i = 0; i < tx.items().size(); i++) {
            if (type.isInstance(tx.items().get(i))) {
                return i;
            }
        }
        throw new AssertionError("no " + type.getSimpleName());
    }

    private TransactionCanceledException cancelled(int index, String code) {
        List<CancellationReason> reasons = new ArrayList<>();
        for (int i = 0; i < tx.items().size(); i++) {
            reasons.add(CancellationReason.builder().code(i == index ? code : "None").build());
        }
        return TransactionCanceledException.builder()
                .cancellationReasons(reasons)
                .message("cancelled")
                .build();
    }

    @Test
    void aCounterConditionIsAStaleCacheOrAMoveAfterTheRead() {
        TransactionCanceledException e =
                cancelled(
                        indexOf(PostingTransactionPlan.CounterWrite.class),
                        "ConditionalCheckFailed");
        assertThat(PostingErrors.classify(tx, e)).isEqualTo(PostingErrors.Verdict.COUNTER_CONFLICT);
        assertThat(PostingErrors.cause(tx, e, true))
                .isEqualTo(PostingRetryCause.COUNTER_CACHE_STALE);
        assertThat(PostingErrors.cause(tx, e, false)).isEqualTo(PostingRetryCause.COUNTER_VERSION);
        assertThat(PostingErrors.failedItem(tx, e.cancellationReasons()))
                .isInstanceOf(PostingTransactionPlan.CounterWrite.class);
    }

    @Test
    void anAuthorityConditionIsAnAuthorityVersionMismatch() {
        TransactionCanceledException e =
                cancelled(
                        indexOf(PostingTransactionPlan.AuthorityAdd.class),
                        "ConditionalCheckFailed");
        assertThat(PostingErrors.cause(tx, e, true)).isEqualTo(PostingRetryCause.AUTHORITY_VERSION);
    }

    @Test
    void conflictsThrottlesAndTheRestAreNamed() {
        assertThat(PostingErrors.cause(tx, cancelled(3, "TransactionConflict"), true))
                .isEqualTo(PostingRetryCause.TRANSACTION_CONFLICT);
        assertThat(
                        PostingErrors.cause(
                                tx,
                                TransactionConflictException.builder().message("x").build(),
                                false))
                .isEqualTo(PostingRetryCause.TRANSACTION_CONFLICT);
        assertThat(PostingErrors.cause(tx, cancelled(0, "ThrottlingError"), false))
                .isEqualTo(PostingRetryCause.THROTTLING);
        assertThat(
                        PostingErrors.cause(
                                null,
                                ProvisionedThroughputExceededException.builder()
                                        .awsErrorDetails(
                                                AwsErrorDetails.builder()
                                                        .errorCode(
                                                                "ProvisionedThroughputExceededException")
                                                        .build())
                                        .build(),
                                false))
                .isEqualTo(PostingRetryCause.THROTTLING);
        assertThat(PostingErrors.cause(null, new PostingErrors.CounterReadThrottled(), false))
                .isEqualTo(PostingRetryCause.THROTTLING);
        assertThat(
                        PostingErrors.cause(
                                tx,
                                new java.io.UncheckedIOException(new java.io.IOException("reset")),
                                false))
                .isEqualTo(PostingRetryCause.OTHER);
    }

    @Test
    void metricNamesAreCamelCase() {
        assertThat(PostingRetryCause.COUNTER_CACHE_STALE.metricName())
                .isEqualTo("counterCacheStale");
        assertThat(PostingRetryCause.OTHER.flinkCounter()).isEqualTo("retries_other");
    }
}
