package io.streamledger.model.table;

/** DynamoDB Streams view types (seed "DynamoDB Streams and semantic outbox events"). */
public enum StreamViewType {
    KEYS_ONLY,
    NEW_IMAGE,
    OLD_IMAGE,
    NEW_AND_OLD_IMAGES
}
