package io.streamledger.command.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** One classification (STYLE 8) and bounded retries of only the retryable. */
class ErrorClassifierTest {

    private static TransactionCanceledException cancelled(String... codes) {
        CancellationReason[] rs = new CancellationReason[codes.length];
        for (int i = 0; i < codes.length; i++) {
            rs[i] = CancellationReason.builder().code(codes[i]).build();
        }
        return TransactionCanceledException.builder().cancellationReasons(rs).build();
    }

    @Test
    void classifies() {
        assertThat(ErrorClassifier.classify(ConditionalCheckFailedException.builder().build()))
                .isEqualTo(ErrorClass.CONDITION_FAILED);
        assertThat(
                        ErrorClassifier.classify(
                                ProvisionedThroughputExceededException.builder().build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(ErrorClassifier.classify(DynamoDbException.builder().statusCode(500).build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        ErrorClassifier.classify(
                                DynamoDbException.builder()
                                        .statusCode(400)
                                        .awsErrorDetails(
                                                AwsErrorDetails.builder()
                                                        .errorCode("ThrottlingException")
                                                        .build())
                                        .build()))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        ErrorClassifier.classify(
                                DynamoDbException.builder()
                                        .statusCode(400)
                                        .awsErrorDetails(
                                                AwsErrorDetails.builder()
                                                        .errorCode("ValidationException")
                                                        .build())
                                        .build()))
                .isEqualTo(ErrorClass.FATAL);
        assertThat(ErrorClassifier.classify(SdkClientException.create("io")))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(ErrorClassifier.classify(cancelled("None", "TransactionConflict")))
                .isEqualTo(ErrorClass.RETRYABLE);
        assertThat(
                        ErrorClassifier.classify(
                                cancelled("ConditionalCheckFailed", "TransactionConflict")))
                .isEqualTo(ErrorClass.TRANSACTION_CANCELLED);
    }

    @Test
    void retriesOnlyRetryableAndGivesUpAfterTheBound() {
        Retrying r =
                new Retrying(
                        new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(2), ms -> {}));
        AtomicInteger calls = new AtomicInteger();
        assertThat(
                        r.call(
                                () -> {
                                    if (calls.incrementAndGet() < 3) {
                                        throw ProvisionedThroughputExceededException.builder()
                                                .build();
                                    }
                                    return "ok";
                                }))
                .isEqualTo("ok");
        assertThat(r.retries()).isEqualTo(2);
        calls.set(0);
        assertThatThrownBy(
                        () ->
                                r.call(
                                        () -> {
                                            calls.incrementAndGet();
                                            throw ConditionalCheckFailedException.builder().build();
                                        }))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(calls.get()).isEqualTo(1);
        assertThatThrownBy(
                        () ->
                                r.call(
                                        () -> {
                                            throw DynamoDbException.builder()
                                                    .statusCode(503)
                                                    .build();
                                        }))
                .isInstanceOf(RetriesExhaustedException.class);
        assertThat(r.exhausted()).isEqualTo(1);
    }
}
