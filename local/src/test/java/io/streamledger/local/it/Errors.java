package io.streamledger.local.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/** Asserts DynamoDB error codes as the SDK parses them from {@code __type}. */
public final class Errors {
    private Errors() {}

    public static AbstractThrowableAssert<?, ? extends Throwable> assertError(
            ThrowingCallable call, String code) {
        return assertThatThrownBy(call)
                .isInstanceOf(DynamoDbException.class)
                .satisfies(
                        e ->
                                assertThat(((DynamoDbException) e).awsErrorDetails().errorCode())
                                        .isEqualTo(code));
    }

    public static AbstractThrowableAssert<?, ? extends Throwable> assertValidation(
            ThrowingCallable call) {
        return assertError(call, "ValidationException");
    }
}
