package io.streamledger.aws.error;

import java.util.List;
import java.util.Locale;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;

/**
 * The codes DynamoDB puts on each action of a cancelled {@code TransactWriteItems} (seed CS01/CS04
 * transactions): the one home of the {@code "ConditionalCheckFailed"} literal.
 */
public enum CancellationCode {
    NONE("None"),
    CONDITIONAL_CHECK_FAILED("ConditionalCheckFailed"),
    TRANSACTION_CONFLICT("TransactionConflict"),
    THROTTLING_ERROR("ThrottlingError"),
    PROVISIONED_THROUGHPUT_EXCEEDED("ProvisionedThroughputExceeded"),
    REQUEST_LIMIT_EXCEEDED("RequestLimitExceeded"),
    ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED("ItemCollectionSizeLimitExceeded"),
    VALIDATION_ERROR("ValidationError"),
    /** A code this build does not know: treated as fatal. */
    OTHER("");

    private final String code;

    CancellationCode(String code) {
        this.code = code;
    }

    /** The code as DynamoDB spells it. */
    public String code() {
        return code;
    }

    /** True for the codes that a later attempt of the same transaction can clear. */
    public boolean retryable() {
        return this == TRANSACTION_CONFLICT
                || this == THROTTLING_ERROR
                || this == PROVISIONED_THROUGHPUT_EXCEEDED
                || this == REQUEST_LIMIT_EXCEEDED;
    }

    /** A missing code reads as {@link #NONE}; an unknown one as {@link #OTHER}. */
    public static CancellationCode of(@Nullable String code) {
        if (code == null || code.isEmpty()) {
            return NONE;
        }
        for (CancellationCode c : values()) {
            if (c != OTHER
                    && c.code.toLowerCase(Locale.ROOT).equals(code.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        return OTHER;
    }

    /** The code of action {@code index}; {@link #NONE} when the list does not reach it. */
    public static CancellationCode at(@Nullable List<CancellationReason> reasons, int index) {
        if (reasons == null || index < 0 || reasons.size() <= index) {
            return NONE;
        }
        return of(reasons.get(index).code());
    }

    /** True when action {@code index} of a cancelled transaction failed its condition. */
    public static boolean conditionFailed(@Nullable List<CancellationReason> reasons, int index) {
        return at(reasons, index) == CONDITIONAL_CHECK_FAILED;
    }
}
