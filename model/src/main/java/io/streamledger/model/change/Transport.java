package io.streamledger.model.change;

/**
 * Which transport delivered a change record (DESIGN "Change records"): DynamoDB Streams keeps
 * per-item order; Kinesis Data Streams for DynamoDB may duplicate and reorder.
 */
public enum Transport {
    DYNAMODB_STREAMS,
    KINESIS
}
