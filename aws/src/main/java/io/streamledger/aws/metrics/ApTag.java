package io.streamledger.aws.metrics;

import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;

/**
 * The access pattern a DynamoDB call serves (seed AP01–AP18, or a CS id for paths outside the AP
 * inventory such as the CS08 dead-letter table), set by the caller on the request and read by
 * {@link DynamoDbMetricsInterceptor}: the one way a call is tagged.
 *
 * <pre>{@code
 * GetItemRequest.builder().tableName(t).key(k).overrideConfiguration(ApTag.override("AP01"))
 * ApTag.on(PutItemRequest.builder(), "AP08")   // same, returning the builder
 * }</pre>
 */
public record ApTag(String id) {
    private static final Pattern ID = Pattern.compile("(AP|CS)\\d{2}");

    /** The label value of calls nobody tagged, so the gap shows in the metrics. */
    public static final String UNTAGGED = "none";

    /** Execution attribute carrying the tag from the request to the interceptor. */
    public static final ExecutionAttribute<ApTag> ATTRIBUTE =
            new ExecutionAttribute<>("streamledger.ap");

    public ApTag {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("AP tag must be APnn or CSnn, got " + id);
        }
    }

    /** A request override that tags the call with {@code ap}. */
    public static AwsRequestOverrideConfiguration override(String ap) {
        return AwsRequestOverrideConfiguration.builder()
                .putExecutionAttribute(ATTRIBUTE, new ApTag(ap))
                .build();
    }

    /** A copy of {@code request} tagged with {@code ap} (its other overrides are replaced). */
    @SuppressWarnings("unchecked")
    public static <R extends AwsRequest> R tag(R request, String ap) {
        return (R) request.toBuilder().overrideConfiguration(override(ap)).build();
    }

    /** Tags {@code builder} with {@code ap} and returns it. */
    @SuppressWarnings("unchecked")
    public static <B extends AwsRequest.Builder> B on(B builder, String ap) {
        return (B) builder.overrideConfiguration(override(ap));
    }
}
