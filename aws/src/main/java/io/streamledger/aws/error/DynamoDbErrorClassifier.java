package io.streamledger.aws.error;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import javax.annotation.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.RetryableException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * The one place that decides fatal vs retryable vs expected-conditional for every DynamoDB call of
 * the product (seed CS06: a conditional failure is an expected outcome with a metric).
 *
 * <p>Decided by DynamoDB error code first (what the service says, per its documented "OK to retry?"
 * column), then HTTP status, then the client-side cause, where only what the SDK itself retries
 * (I/O, attempt timeouts) is transient. The table is in the module README.
 */
public final class DynamoDbErrorClassifier {

    /** Error codes DynamoDB documents as throttling or transient server-side trouble. */
    private static final Set<String> RETRYABLE_CODES =
            Set.of(
                    "ProvisionedThroughputExceededException",
                    "RequestLimitExceeded",
                    "ThrottlingException",
                    "Throttling",
                    "TransactionConflictException",
                    "TransactionInProgressException",
                    "InternalServerError",
                    "InternalFailure",
                    "ServiceUnavailable",
                    "LimitExceededException");

    private static final String CONDITIONAL_CODE = "ConditionalCheckFailedException";

    private DynamoDbErrorClassifier() {}

    /** Classifies {@code error}, looking through the future/completion wrappers. */
    public static ErrorClass classify(Throwable error) {
        Throwable t = unwrap(error);
        if (t instanceof ConditionalCheckFailedException) {
            return ErrorClass.CONDITION_FAILED;
        }
        if (t instanceof ProvisionedThroughputExceededException
                || t instanceof RequestLimitExceededException
                || t instanceof LimitExceededException
                || t instanceof InternalServerErrorException
                || t instanceof TransactionConflictException) {
            return ErrorClass.RETRYABLE;
        }
        if (t instanceof TransactionCanceledException tce) {
            return classifyCancellation(tce);
        }
        if (t instanceof AwsServiceException ase) {
            return classifyService(ase);
        }
        if (t instanceof ApiCallTimeoutException || t instanceof ApiCallAttemptTimeoutException) {
            // only conditional (repeat-safe) writes and reads go through a retry loop
            return ErrorClass.RETRYABLE;
        }
        if (t instanceof SdkClientException) {
            // the SDK's own rule: I/O trouble is transient; no region, no credentials or a bad
            // endpoint URI is configuration
            return hasCause(t, IOException.class)
                            || hasCause(t, UncheckedIOException.class)
                            || hasCause(t, RetryableException.class)
                    ? ErrorClass.RETRYABLE
                    : ErrorClass.FATAL;
        }
        return ErrorClass.FATAL;
    }

    /** Service error codes that mean throttling (a subset of the retryable codes). */
    private static final Set<String> THROTTLING_CODES =
            Set.of(
                    "ProvisionedThroughputExceededException",
                    "RequestLimitExceeded",
                    "ThrottlingException",
                    "Throttling");

    /**
     * The throttling reason of {@code error} for metrics: the service's error code, or the first
     * throttling cancellation code of a cancelled transaction; null when it is no throttle.
     */
    public static @Nullable String throttlingReason(Throwable error) {
        Throwable t = unwrap(error);
        if (t instanceof TransactionCanceledException tce && tce.hasCancellationReasons()) {
            for (CancellationReason reason : tce.cancellationReasons()) {
                CancellationCode code = CancellationCode.of(reason.code());
                if (code.retryable() && code != CancellationCode.TRANSACTION_CONFLICT) {
                    return code.code();
                }
            }
            return null;
        }
        if (t instanceof AwsServiceException ase) {
            String code = ase.awsErrorDetails() == null ? null : ase.awsErrorDetails().errorCode();
            if (code != null && THROTTLING_CODES.contains(code)) {
                return code;
            }
            if (ase.isThrottlingException()) {
                return code != null ? code : "HTTP" + ase.statusCode();
            }
        }
        return null;
    }

    /** True when {@link #classify} says RETRYABLE. */
    public static boolean isRetryable(Throwable error) {
        return classify(error) == ErrorClass.RETRYABLE;
    }

    /** The exception to report for {@code error}: the first non-wrapper cause. */
    public static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static ErrorClass classifyService(AwsServiceException e) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        if (code != null) {
            if (CONDITIONAL_CODE.equals(code)) {
                return ErrorClass.CONDITION_FAILED;
            }
            if (RETRYABLE_CODES.contains(code)) {
                return ErrorClass.RETRYABLE;
            }
        }
        if (e.isThrottlingException()) {
            return ErrorClass.RETRYABLE;
        }
        int status = e.statusCode();
        if (status >= 500 || status == 429) {
            return ErrorClass.RETRYABLE;
        }
        return ErrorClass.FATAL;
    }

    /**
     * A cancelled transaction is conditional if any action failed its condition and none failed
     * fatally (the caller reads which action from the reasons), retryable if every named reason is
     * transient, otherwise fatal.
     */
    private static ErrorClass classifyCancellation(TransactionCanceledException e) {
        List<CancellationReason> reasons =
                e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
        boolean anyConditional = false;
        boolean anyRetryable = false;
        for (CancellationReason reason : reasons) {
            CancellationCode code = CancellationCode.of(reason.code());
            if (code == CancellationCode.NONE) {
                continue;
            }
            if (code == CancellationCode.CONDITIONAL_CHECK_FAILED) {
                anyConditional = true;
            } else if (code.retryable()) {
                anyRetryable = true;
            } else {
                return ErrorClass.FATAL;
            }
        }
        if (anyConditional) {
            return ErrorClass.CONDITION_FAILED;
        }
        return anyRetryable ? ErrorClass.RETRYABLE : ErrorClass.FATAL;
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        int depth = 0;
        for (Throwable c = t; c != null && depth < 32; c = c.getCause(), depth++) {
            if (type.isInstance(c)) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }

    /** Short description for logs and fatal-error messages. */
    public static String describe(Throwable error) {
        Throwable t = unwrap(error);
        if (t instanceof AwsServiceException e && e.awsErrorDetails() != null) {
            return String.format(
                    Locale.ROOT,
                    "%s (HTTP %d): %s",
                    e.awsErrorDetails().errorCode(),
                    e.statusCode(),
                    e.awsErrorDetails().errorMessage());
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
