package io.streamledger.command.dynamo;

import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * Decides once, for every DynamoDB call of the service, whether a failure is retryable (STYLE 8).
 */
public final class ErrorClassifier {

    private ErrorClassifier() {}

    public static ErrorClass classify(Throwable t) {
        if (t instanceof ConditionalCheckFailedException) {
            return ErrorClass.CONDITION_FAILED;
        }
        if (t instanceof TransactionCanceledException tce) {
            // A cancellation caused only by conflicts/throttling is transient; any condition
            // failure or validation error is an outcome the caller must read.
            return onlyTransientReasons(tce)
                    ? ErrorClass.RETRYABLE
                    : ErrorClass.TRANSACTION_CANCELLED;
        }
        if (t instanceof TransactionConflictException
                || t instanceof ProvisionedThroughputExceededException
                || t instanceof RequestLimitExceededException
                || t instanceof InternalServerErrorException) {
            return ErrorClass.RETRYABLE;
        }
        if (t instanceof DynamoDbException dde) {
            if (dde.isThrottlingException() || dde.statusCode() >= 500) {
                return ErrorClass.RETRYABLE;
            }
            String code = dde.awsErrorDetails() == null ? null : dde.awsErrorDetails().errorCode();
            if ("ThrottlingException".equals(code)
                    || "TransactionInProgressException".equals(code)) {
                return ErrorClass.RETRYABLE;
            }
            return ErrorClass.FATAL;
        }
        if (t instanceof SdkClientException) {
            // I/O failure: the request may or may not have been applied; callers only retry
            // operations that are conditional and therefore safe to repeat.
            return ErrorClass.RETRYABLE;
        }
        return ErrorClass.FATAL;
    }

    private static boolean onlyTransientReasons(TransactionCanceledException tce) {
        if (!tce.hasCancellationReasons()) {
            return false;
        }
        boolean anyTransient = false;
        for (CancellationReason r : tce.cancellationReasons()) {
            String code = r.code();
            if (code == null || "None".equals(code)) {
                continue;
            }
            if ("TransactionConflict".equals(code)
                    || "ThrottlingError".equals(code)
                    || "ProvisionedThroughputExceeded".equals(code)) {
                anyTransient = true;
            } else {
                return false;
            }
        }
        return anyTransient;
    }
}
