package io.streamledger.local.streams;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.ApiExtension;
import java.util.Set;

/** Routes the {@code DynamoDBStreams_20120810.*} targets to {@link LocalDynamoDbStreams} (CS07). */
public final class StreamsApiExtension implements ApiExtension {
    public static final String PREFIX = "DynamoDBStreams_20120810.";
    public static final String LIST_STREAMS = PREFIX + "ListStreams";
    public static final String DESCRIBE_STREAM = PREFIX + "DescribeStream";
    public static final String GET_SHARD_ITERATOR = PREFIX + "GetShardIterator";
    public static final String GET_RECORDS = PREFIX + "GetRecords";

    private final LocalDynamoDbStreams streams;

    public StreamsApiExtension(LocalDynamoDbStreams streams) {
        this.streams = streams;
    }

    @Override
    public Set<String> targets() {
        return Set.of(LIST_STREAMS, DESCRIBE_STREAM, GET_SHARD_ITERATOR, GET_RECORDS);
    }

    @Override
    public JsonNode handle(String target, ObjectNode request) {
        switch (target) {
            case LIST_STREAMS:
                return streams.listStreams(request);
            case DESCRIBE_STREAM:
                return streams.describeStream(request);
            case GET_SHARD_ITERATOR:
                return streams.getShardIterator(request);
            case GET_RECORDS:
                return streams.getRecords(request);
            default:
                throw new ApiException(
                        "UnknownOperationException", 400, "Unknown operation " + target);
        }
    }
}
