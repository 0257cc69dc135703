package io.streamledger.local.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * Serves a set of {@code X-Amz-Target} operations beside the engine's own (e.g. {@code
 * DynamoDBStreams_20120810.GetRecords}, {@code
 * DynamoDB_20120810.EnableKinesisStreamingDestination}, {@code
 * DynamoDB_20120810.ExportTableToPointInTime}). The server's dispatcher routes a target here when
 * the engine does not serve it.
 */
public interface ApiExtension {
    /** Full targets this extension serves, e.g. {@code DynamoDBStreams_20120810.GetRecords}. */
    Set<String> targets();

    /** Handles one request; throws {@link ApiException} for a DynamoDB-shaped error. */
    JsonNode handle(String target, ObjectNode request);
}
