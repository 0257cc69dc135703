package io.streamledger.aws.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/** Bounded retries of only the retryable, through the SDK retry strategy; retries counted. */
class RetryingTest {

    @Test
    void retriesOnlyRetryableAndGivesUpAfterTheBound() {
        Retrying r =
                new Retrying(
                        new RetryPolicy(
                                4,
                                Duration.ofMillis(1),
                                Duration.ofMillis(2),
                                RetryPolicy.Jitter.FULL,
                                ms -> {}));
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
        assertThat(r.retries()).as("2 + 3 retries of the 4-attempt bound").isEqualTo(5);
    }

    @Test
    void sleepsTheBackoffBetweenAttempts() {
        java.util.List<Long> slept = new java.util.ArrayList<>();
        Retrying r =
                new Retrying(
                        new RetryPolicy(
                                3,
                                Duration.ofMillis(8),
                                Duration.ofMillis(100),
                                RetryPolicy.Jitter.HALF,
                                slept::add));
        assertThatThrownBy(
                        () ->
                                r.call(
                                        () -> {
                                            throw ProvisionedThroughputExceededException.builder()
                                                    .build();
                                        }))
                .isInstanceOf(RetriesExhaustedException.class);
        assertThat(slept).hasSize(2);
        assertThat(slept.get(0)).isBetween(4L, 8L);
        assertThat(slept.get(1)).isBetween(8L, 16L);
    }
}
