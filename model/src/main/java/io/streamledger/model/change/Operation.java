package io.streamledger.model.change;

/** DynamoDB Streams {@code eventName}: the kind of item mutation. */
public enum Operation {
    INSERT,
    MODIFY,
    REMOVE
}
