package io.streamledger.model.contract;

import java.util.Objects;

/**
 * A named inconsistency found by the contract verifier.
 *
 * @param rule the rule that failed, e.g. {@code LANE_LOAD}
 * @param subject the row or figure it concerns, e.g. {@code L09A} or {@code ap09_receipt_shards}
 * @param detail what differs, with both values
 */
public record Violation(String rule, String subject, String detail) {
    public Violation {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
        return rule + " " + subject + ": " + detail;
    }
}
