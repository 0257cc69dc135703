package io.streamledger.local.streams;

import io.streamledger.local.spi.ApiException;

/** The DynamoDB Streams error types, in DynamoDB's JSON 1.0 error shape (CS07). */
final class StreamsErrors {
    private StreamsErrors() {}

    static ApiException expiredIterator() {
        return new ApiException(
                "ExpiredIteratorException",
                400,
                "Iterator expired. The iterator was created more than 15 minutes ago.");
    }

    static ApiException trimmed(String what) {
        return new ApiException(
                "TrimmedDataAccessException",
                400,
                "The requested data is beyond the trim horizon of the stream: " + what);
    }

    static ApiException streamNotFound(String arn) {
        return ApiException.resourceNotFound(
                "Requested resource not found: Stream: " + arn + " not found");
    }

    static ApiException shardNotFound(String arn, String shardId) {
        return ApiException.resourceNotFound(
                "Requested resource not found: Shard: " + shardId + " in Stream: " + arn);
    }
}
