package io.streamledger.sinks.error;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * The one place that decides fatal vs retryable vs expected-conditional for DynamoDB write errors
 * (STYLE habit 8; seed CS06: a conditional failure is an expected outcome with a metric).
 *
 * <p>Decided by DynamoDB error code first (what the service says), then HTTP status, then client
 * side cause. Unknown 4xx are fatal: repeating a request the service rejected as malformed only
 * hides the defect.
 */
public final class DynamoDbErrorClassifier {

    /** Error codes DynamoDB uses for throttling and transient server-side conflicts. */
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

    /** Transaction cancellation reason codes that are transient. */
    private static final Set<String> RETRYABLE_REASONS =
            Set.of(
                    "TransactionConflict",
                    "ProvisionedThroughputExceeded",
                    "ThrottlingError",
                    "RequestLimitExceeded");

    private static final String CONDITIONAL_REASON = "ConditionalCheckFailed";
    private static final String NO_REASON = "None";

    private DynamoDbErrorClassifier() {}

    /** Classifies {@code error}, looking through the future/completion wrappers. */
    public static WriteOutcomeClass classify(Throwable error) {
        Throwable t = unwrap(error);
        if (t instanceof ConditionalCheckFailedException) {
            return WriteOutcomeClass.CONDITION_FAILED;
        }
        if (t instanceof ProvisionedThroughputExceededException
                || t instanceof RequestLimitExceededException
                || t instanceof InternalServerErrorException
                || t instanceof TransactionConflictException) {
            return WriteOutcomeClass.RETRYABLE;
        }
        if (t instanceof TransactionCanceledException) {
            return classifyCancellation((TransactionCanceledException) t);
        }
        if (t instanceof AwsServiceException) {
            return classifyService((AwsServiceException) t);
        }
        if (t instanceof ApiCallTimeoutException || t instanceof ApiCallAttemptTimeoutException) {
            return WriteOutcomeClass.RETRYABLE;
        }
        if (t instanceof SdkClientException) {
            // I/O trouble (refused, reset, read timeout) is transient; anything else on the client
            // side (no region, no credentials, bad endpoint URI) is configuration.
            return hasCause(t, IOException.class)
                    ? WriteOutcomeClass.RETRYABLE
                    : WriteOutcomeClass.FATAL;
        }
        return WriteOutcomeClass.FATAL;
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

    private static WriteOutcomeClass classifyService(AwsServiceException e) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        if (code != null) {
            if ("ConditionalCheckFailedException".equals(code)) {
                return WriteOutcomeClass.CONDITION_FAILED;
            }
            if (RETRYABLE_CODES.contains(code)) {
                return WriteOutcomeClass.RETRYABLE;
            }
        }
        if (e.isThrottlingException()) {
            return WriteOutcomeClass.RETRYABLE;
        }
        int status = e.statusCode();
        if (status >= 500 || status == 429) {
            return WriteOutcomeClass.RETRYABLE;
        }
        return WriteOutcomeClass.FATAL;
    }

    /**
     * A cancelled transaction is conditional if every named reason is a conditional failure,
     * retryable if any reason is transient and none is fatal, otherwise fatal.
     */
    private static WriteOutcomeClass classifyCancellation(TransactionCanceledException e) {
        List<CancellationReason> reasons =
                e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
        boolean anyConditional = false;
        boolean anyRetryable = false;
        for (CancellationReason reason : reasons) {
            String code = reason.code();
            if (code == null || NO_REASON.equalsIgnoreCase(code)) {
                continue;
            }
            if (CONDITIONAL_REASON.equalsIgnoreCase(code)) {
                anyConditional = true;
            } else if (RETRYABLE_REASONS.contains(code)) {
                anyRetryable = true;
            } else {
                return WriteOutcomeClass.FATAL;
            }
        }
        if (anyConditional) {
            return WriteOutcomeClass.CONDITION_FAILED;
        }
        return anyRetryable ? WriteOutcomeClass.RETRYABLE : WriteOutcomeClass.FATAL;
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
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
        if (t instanceof AwsServiceException
                && ((AwsServiceException) t).awsErrorDetails() != null) {
            AwsServiceException e = (AwsServiceException) t;
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
