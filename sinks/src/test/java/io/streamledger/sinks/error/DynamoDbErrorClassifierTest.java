package io.streamledger.sinks.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** The single fatal/retryable/conditional decision (STYLE habit 8; seed CS06). */
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
        assertThat(DynamoDbErrorClassifier.classify(e))
                .isEqualTo(WriteOutcomeClass.CONDITION_FAILED);
        assertThat(DynamoDbErrorClassifier.classify(new CompletionException(e)))
                .isEqualTo(WriteOutcomeClass.CONDITION_FAILED);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                service(400, "ConditionalCheckFailedException")))
                .isEqualTo(WriteOutcomeClass.CONDITION_FAILED);
    }

    @Test
    void throttlingIsRetryable() {
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ProvisionedThroughputExceededException.builder()
                                        .statusCode(400)
                                        .message("slow")
                                        .build()))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(400, "ThrottlingException")))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(400, "RequestLimitExceeded")))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(429, "SomethingNew")))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
    }

    @Test
    void serverErrorsAreRetryable() {
        assertThat(DynamoDbErrorClassifier.classify(service(500, "InternalServerError")))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(service(503, "Unknown")))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
    }

    @Test
    void validationMissingTableAndOther4xxAreFatal() {
        assertThat(DynamoDbErrorClassifier.classify(service(400, "ValidationException")))
                .isEqualTo(WriteOutcomeClass.FATAL);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ResourceNotFoundException.builder()
                                        .statusCode(400)
                                        .message("no table")
                                        .build()))
                .isEqualTo(WriteOutcomeClass.FATAL);
        assertThat(DynamoDbErrorClassifier.classify(service(403, "AccessDeniedException")))
                .isEqualTo(WriteOutcomeClass.FATAL);
    }

    @Test
    void clientSideIoAndTimeoutsAreRetryableButMisconfigurationIsFatal() {
        SdkClientException refused =
                SdkClientException.builder()
                        .message("connect")
                        .cause(new ConnectException("refused"))
                        .build();
        assertThat(DynamoDbErrorClassifier.classify(new CompletionException(refused)))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                SdkClientException.builder()
                                        .cause(new IOException("reset"))
                                        .build()))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                ApiCallAttemptTimeoutException.builder().message("slow").build()))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
        assertThat(
                        DynamoDbErrorClassifier.classify(
                                SdkClientException.create("Unable to load credentials")))
                .isEqualTo(WriteOutcomeClass.FATAL);
    }

    @Test
    void programmingErrorsAreFatal() {
        assertThat(DynamoDbErrorClassifier.classify(new IllegalArgumentException("bad key")))
                .isEqualTo(WriteOutcomeClass.FATAL);
    }

    @Test
    void cancelledTransactionsAreClassifiedByTheirReasons() {
        assertThat(DynamoDbErrorClassifier.classify(cancelled("None", "ConditionalCheckFailed")))
                .isEqualTo(WriteOutcomeClass.CONDITION_FAILED);
        assertThat(DynamoDbErrorClassifier.classify(cancelled("TransactionConflict", "None")))
                .isEqualTo(WriteOutcomeClass.RETRYABLE);
        assertThat(DynamoDbErrorClassifier.classify(cancelled("ValidationError", "None")))
                .isEqualTo(WriteOutcomeClass.FATAL);
        assertThat(DynamoDbErrorClassifier.classify(cancelled("None", "None")))
                .isEqualTo(WriteOutcomeClass.FATAL);
    }

    @Test
    void describeNamesTheServiceErrorCode() {
        assertThat(DynamoDbErrorClassifier.describe(service(400, "ValidationException")))
                .startsWith("ValidationException (HTTP 400)");
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
