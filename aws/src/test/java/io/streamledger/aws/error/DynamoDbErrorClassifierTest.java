package io.streamledger.aws.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** The single fatal/retryable/conditional decision for every module (seed CS06). */
class DynamoDbErrorClassifierTest {

    private static DynamoDbException service(int status, String code) {
        return (DynamoDbException)
                DynamoDbException.builder()
                        .statusCode(status)
                        .awsErrorDetails(
                                AwsErrorDetails.builder().errorCode(code).errorMessage("m").build())
                        .build();
    }

    @Test
    void conditionalCheckFailureIsAnExpectedOutcomeEvenWhenWrapped() {
        var e = ConditionalCheckFailedException.builder().message("no").build();
        assertThat(DynamoDbErrorClassifier.classify(e)).isEqualTo(ErrorClass.CONDITION_FAILED);
        assertThat(DynamoDbErrorClassifier.classify(new CompletionException(e)))
                .isEqualTo(ErrorClass.CONDITION_FAILED);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                service(400, "ConditionalCheckFailedException")))
                .isEqualTo(ErrorClass.CONDITION_FAILED);
    }

    @Test
    void throttlingIsRetryable() {
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ProvisionedThroughputExceededException.builder()
                                        .statusCode(400)
                                        .message("slow")
                                        .build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(400, "ThrottlingException")))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(400, "RequestLimitExceeded")))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(429, "SomethingNew")))
                .isEqualTo(ErrorClass.RETRYABLE);
    }

    @Test
    void serverErrorsAreRetryable() {
        assertThat(DynamoDbErrorClassifier.classify(service(500, "InternalServerError")))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(503, "Unknown")))
                .isEqualTo(ErrorClass.RETRYABLE);
    }

    @Test
    void validationMissingTableAndOther4xxAreFatal() {
        assertThat(DynamoDbErrorClassifier.classify(service(400, "ValidationException")))
                .isEqualTo(ErrorClass.FATAL);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ResourceNotFoundException.builder()
                                        .statusCode(400)
                                        .message("no table")
                                        .build()))
                .isEqualTo(ErrorClass.FATAL);
        assertThat(DynamoDbErrorClassifier.classify(service(403, "AccessDeniedException")))
                .isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void clientSideIoAndTimeoutsAreRetryableButMisconfigurationIsFatal() {
        SdkClientException refused =
                SdkClientException.builder()
                        .message("connect")
                        .cause(new ConnectException("refused"))
                        .build();
        assertThat(DynamoDbErrorClassifier.classify(new CompletionException(refused)))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                SdkClientException.builder()
                                        .cause(new IOException("reset"))
                                        .build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ApiCallAttemptTimeoutException.builder().message("slow").build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                SdkClientException.create("Unable to load credentials")))
                .isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void programmingErrorsAreFatal() {
        assertThat(DynamoDbErrorClassifier.classify(new IllegalArgumentException("bad key")))
                .isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void cancelledTransactionsAreClassifiedByTheirReasons() {
        assertThat(DynamoDbErrorClassifier.classify(cancelled("None", "ConditionalCheckFailed")))
                .isEqualTo(ErrorClass.CONDITION_FAILED);
        assertThat(DynamoDbErrorClassifier.classify(cancelled("TransactionConflict", "None")))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(cancelled("ValidationError", "None")))
                .isEqualTo(ErrorClass.FATAL);
        assertThat(DynamoDbErrorClassifier.classify(cancelled("None", "None")))
                .isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void commandServiceCasesKeepTheirAnswers() {
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ConditionalCheckFailedException.builder().build()))
                .isEqualTo(ErrorClass.CONDITION_FAILED);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ProvisionedThroughputExceededException.builder().build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                DynamoDbException.builder().statusCode(500).build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(400, "TransactionInProgressException")))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(cancelled("None", "TransactionConflict")))
                .isEqualTo(ErrorClass.RETRYABLE);
    }

    @Test
    void limitExceededIsRetryableAsDynamoDbDocumentsIt() {
        // the command service called this FATAL; DynamoDB's error table says "OK to retry? Yes"
        assertThat(DynamoDbErrorClassifier.classify(service(400, "LimitExceededException")))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                LimitExceededException.builder().statusCode(400).build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                RequestLimitExceededException.builder().statusCode(400).build()))
                .isEqualTo(ErrorClass.RETRYABLE);
    }

    @Test
    void requestLimitExceededAsACancellationReasonIsTransient() {
        // the command service treated it as a non-transient cancellation
        assertThat(DynamoDbErrorClassifier.classify(cancelled("RequestLimitExceeded", "None")))
                .isEqualTo(ErrorClass.RETRYABLE);
    }

    @Test
    void aClientExceptionWithoutAnIoCauseIsFatalLikeTheSdkSays() {
        // the command service retried every SdkClientException; the SDK retries only I/O causes
        assertThat(DynamoDbErrorClassifier.classify(SdkClientException.create("io")))
                .isEqualTo(ErrorClass.FATAL);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                SdkClientException.builder()
                                        .cause(new UncheckedIOException(new IOException("eof")))
                                        .build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ApiCallTimeoutException.builder().message("total").build()))
                .isEqualTo(ErrorClass.RETRYABLE);
    }

    @Test
    void aCancellationWithAFailedConditionIsTheExpectedOutcomeEvenBesideAConflict() {
        // the command service answered TRANSACTION_CANCELLED (also not retried): the caller reads
        // which action failed from the reasons
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                cancelled("ConditionalCheckFailed", "TransactionConflict")))
                .isEqualTo(ErrorClass.CONDITION_FAILED);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                cancelled("ConditionalCheckFailed", "ValidationError")))
                .isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void cancellationCodesAreReadPerAction() {
        TransactionCanceledException e = cancelled("None", "ConditionalCheckFailed");
        assertThat(CancellationCode.conditionFailed(e.cancellationReasons(), 1)).isTrue();
        assertThat(CancellationCode.conditionFailed(e.cancellationReasons(), 0)).isFalse();
        assertThat(CancellationCode.conditionFailed(e.cancellationReasons(), 5)).isFalse();
        assertThat(CancellationCode.conditionFailed(null, 0)).isFalse();
        assertThat(CancellationCode.of("SomethingNew")).isEqualTo(CancellationCode.OTHER);
        assertThat(DynamoDbErrorClassifier.classify(cancelled("SomethingNew")))
                .isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void describeNamesTheServiceErrorCode() {
        assertThat(DynamoDbErrorClassifier.describe(service(400, "ValidationException")))
                .startsWith("ValidationException (HTTP 400)");
    }

    @Test
    void throttlingReasonNamesTheThrottleAndNothingElse() {
        assertThat(
                        DynamoDbErrorClassifier.throttlingReason(
                                new CompletionException(service(400, "ThrottlingException"))))
                .isEqualTo("ThrottlingException");
        assertThat(DynamoDbErrorClassifier.throttlingReason(service(400, "RequestLimitExceeded")))
                .isEqualTo("RequestLimitExceeded");
        assertThat(DynamoDbErrorClassifier.throttlingReason(cancelled("None", "ThrottlingError")))
                .isEqualTo("ThrottlingError");
        assertThat(DynamoDbErrorClassifier.throttlingReason(cancelled("TransactionConflict")))
                .isNull();
        assertThat(DynamoDbErrorClassifier.throttlingReason(service(500, "InternalServerError")))
                .isNull();
        assertThat(
                        DynamoDbErrorClassifier.throttlingReason(
                                ConditionalCheckFailedException.builder().message("x").build()))
                .isNull();
    }

    private static TransactionCanceledException cancelled(String... codes) {
        CancellationReason[] reasons = new CancellationReason[codes.length];
        for (int i = 0; i < codes.length; i++) {
            reasons[i] = CancellationReason.builder().code(codes[i]).build();
        }
        return TransactionCanceledException.builder()
                .statusCode(400)
                .message("cancelled")
                .cancellationReasons(reasons)
                .build();
    }
}
