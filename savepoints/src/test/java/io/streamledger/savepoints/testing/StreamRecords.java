package io.streamledger.savepoints.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.AttributeValueJson;
import io.streamledger.model.change.Transport;
import io.streamledger.model.table.Attr;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** DynamoDB Streams records of Ledger items as the Streams connector hands them to the job. */
public final class StreamRecords {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private StreamRecords() {}

    public static RawChange modify(Map<String, AttributeValue> item, long seq, long createdMillis) {
        Map<String, AttributeValue> keys = new LinkedHashMap<>();
        keys.put(Attr.PK, item.get(Attr.PK));
        keys.put(Attr.SK, item.get(Attr.SK));
        ObjectNode r = MAPPER.createObjectNode();
        r.put("eventID", "ev-" + seq);
        r.put("eventName", "MODIFY");
        r.put("eventVersion", "1.1");
        r.put("eventSource", "aws:dynamodb");
        r.put("awsRegion", "us-east-1");
        ObjectNode d = r.putObject("dynamodb");
        d.put("ApproximateCreationDateTime", createdMillis);
        d.set("Keys", AttributeValueJson.writeItem(keys));
        d.set("NewImage", AttributeValueJson.writeItem(item));
        d.put("SequenceNumber", String.format("%021d", seq));
        d.put("SizeBytes", 100);
        d.put("StreamViewType", "NEW_IMAGE");
        byte[] data = r.toString().getBytes(StandardCharsets.UTF_8);
        return new RawChange(
                Transport.DYNAMODB_STREAMS.name(),
                "arn:test-stream",
                "shardId-1",
                String.format("%021d", seq),
                createdMillis,
                data);
    }
}
