package io.streamledger.aws.update;

import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB condition over top-level attributes, rendered with generated placeholders by {@link
 * ConditionalUpdate} (seed CS06: every write is conditional and safe to repeat).
 */
public sealed interface Condition {

    /** {@code attr op value}. */
    record Compare(String attribute, String operator, AttributeValue value) implements Condition {}

    /** {@code attribute_exists(attr)} or {@code attribute_not_exists(attr)}. */
    record Exists(String attribute, boolean exists) implements Condition {}

    /** All parts ({@code AND}) or any part ({@code OR}). */
    record Junction(boolean all, List<Condition> parts) implements Condition {
        public Junction {
            if (parts.isEmpty()) {
                throw new IllegalArgumentException("a junction needs at least one condition");
            }
            parts = List.copyOf(parts);
        }
    }

    static Condition eq(String attribute, AttributeValue value) {
        return new Compare(attribute, "=", value);
    }

    static Condition ne(String attribute, AttributeValue value) {
        return new Compare(attribute, "<>", value);
    }

    static Condition le(String attribute, AttributeValue value) {
        return new Compare(attribute, "<=", value);
    }

    static Condition lt(String attribute, AttributeValue value) {
        return new Compare(attribute, "<", value);
    }

    static Condition ge(String attribute, AttributeValue value) {
        return new Compare(attribute, ">=", value);
    }

    static Condition gt(String attribute, AttributeValue value) {
        return new Compare(attribute, ">", value);
    }

    static Condition exists(String attribute) {
        return new Exists(attribute, true);
    }

    static Condition notExists(String attribute) {
        return new Exists(attribute, false);
    }

    static Condition and(Condition... parts) {
        return new Junction(true, List.of(parts));
    }

    static Condition or(Condition... parts) {
        return new Junction(false, List.of(parts));
    }
}
