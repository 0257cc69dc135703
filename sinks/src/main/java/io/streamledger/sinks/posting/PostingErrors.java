package io.streamledger.sinks.posting;

import io.streamledger.aws.error.CancellationCode;
import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.operators.posting.PostingTransactionPlan;
import java.util.List;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * What a failed posting transaction means (AP09/AP10), the one seam onto the aws module's error
 * classifier and cancellation codes: the receipt's condition = already posted (duplicate); a
 * posting row's condition = a broken invariant (a row without its receipt); a counter condition =
 * another writer moved it (re-read, retry); throttles, conflicts and 5xx = retry; anything else =
 * fatal.
 */
public final class PostingErrors {

    /** The verdict on one failed attempt. */
    public enum Verdict {
        DUPLICATE,
        POSTING_EXISTS,
        COUNTER_CONFLICT,
        RETRY,
        FATAL
    }

    private PostingErrors() {}

    /** The first non-wrapper cause of {@code error}. */
    public static Throwable unwrap(Throwable error) {
        return DynamoDbErrorClassifier.unwrap(error);
    }

    /** A one-line description for failure messages. */
    public static String describe(Throwable error) {
        return DynamoDbErrorClassifier.describe(error);
    }

    /**
     * @param tx the attempted transaction (where the receipt and the postings are)
     * @param error the attempt's failure, unwrapped or not
     */
    public static Verdict classify(PostingTransactionPlan tx, Throwable error) {
        Throwable t = unwrap(error);
        if (t instanceof TransactionCanceledException tce && tce.hasCancellationReasons()) {
            List<CancellationReason> reasons = tce.cancellationReasons();
            if (CancellationCode.conditionFailed(reasons, PostingTransactionPlan.RECEIPT_INDEX)) {
                return Verdict.DUPLICATE;
            }
            for (int i = 1; i < tx.postingsEnd() && i < reasons.size(); i++) {
                if (CancellationCode.conditionFailed(reasons, i)) {
                    return Verdict.POSTING_EXISTS;
                }
            }
            if (reasons.stream()
                    .anyMatch(
                            r ->
                                    CancellationCode.of(r.code())
                                            == CancellationCode.CONDITIONAL_CHECK_FAILED)) {
                return Verdict.COUNTER_CONFLICT;
            }
        }
        return retryable(t) ? Verdict.RETRY : Verdict.FATAL;
    }

    /**
     * The cause of a failed attempt that is retried (a {@link Verdict#COUNTER_CONFLICT} or {@link
     * Verdict#RETRY}).
     *
     * @param tx the attempted transaction, null when the counter read failed
     * @param countersCached the attempt used remembered counters instead of a read
     */
    public static PostingRetryCause cause(
            @Nullable PostingTransactionPlan tx, Throwable error, boolean countersCached) {
        Throwable t = unwrap(error);
        if (t instanceof CounterReadThrottled) {
            return PostingRetryCause.THROTTLING;
        }
        if (t instanceof TransactionCanceledException tce && tce.hasCancellationReasons()) {
            PostingTransactionPlan.Item failed = failedItem(tx, tce.cancellationReasons());
            if (failed instanceof PostingTransactionPlan.CounterWrite) {
                return countersCached
                        ? PostingRetryCause.COUNTER_CACHE_STALE
                        : PostingRetryCause.COUNTER_VERSION;
            }
            if (failed instanceof PostingTransactionPlan.AuthorityAdd) {
                return PostingRetryCause.AUTHORITY_VERSION;
            }
            if (tce.cancellationReasons().stream()
                    .anyMatch(
                            r ->
                                    CancellationCode.of(r.code())
                                            == CancellationCode.TRANSACTION_CONFLICT)) {
                return PostingRetryCause.TRANSACTION_CONFLICT;
            }
        }
        if (t instanceof TransactionConflictException) {
            return PostingRetryCause.TRANSACTION_CONFLICT;
        }
        return DynamoDbErrorClassifier.throttlingReason(t) != null
                ? PostingRetryCause.THROTTLING
                : PostingRetryCause.OTHER;
    }

    /** The first item of {@code tx} whose condition failed; null when none (or no plan). */
    @Nullable
    public static PostingTransactionPlan.Item failedItem(
            @Nullable PostingTransactionPlan tx, List<CancellationReason> reasons) {
        if (tx == null) {
            return null;
        }
        for (int i = 0; i < reasons.size() && i < tx.items().size(); i++) {
            if (CancellationCode.conditionFailed(reasons, i)) {
                return tx.items().get(i);
            }
        }
        return null;
    }

    /** True for transient failures of a read or write (throttles, 5xx, I/O, timeouts). */
    public static boolean retryable(Throwable error) {
        Throwable t = unwrap(error);
        return t instanceof CounterReadThrottled || DynamoDbErrorClassifier.isRetryable(t);
    }

    /** BatchGetItem left keys unprocessed (throttled): retried like any throttle. */
    static final class CounterReadThrottled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CounterReadThrottled() {
            super("counter read throttled (unprocessed keys)");
        }
    }
}
