package io.streamledger.local.kinesis;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.streams.WireItemSize;
import java.time.Instant;
import java.util.UUID;

/**
 * Renders one change in the JSON record shape of Kinesis Data Streams for DynamoDB ({@code
 * recordFormat} application/json, both images, creation time in milli- or microseconds) (CS06).
 */
final class KinesisChangeRecord {
    static final String RECORD_FORMAT = "application/json";
    static final String MILLISECOND = "MILLISECOND";
    static final String MICROSECOND = "MICROSECOND";

    private KinesisChangeRecord() {}

    static ObjectNode render(ItemChange c, String region, String precision) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode r = json.objectNode();
        r.put("awsRegion", region);
        r.put("eventID", UUID.randomUUID().toString());
        r.put("eventName", c.eventName().name());
        if (c.serviceDelete()) {
            r.putObject("userIdentity")
                    .put("type", "Service")
                    .put("principalId", "dynamodb.amazonaws.com");
        } else {
            r.putNull("userIdentity");
        }
        r.put("recordFormat", RECORD_FORMAT);
        r.put("tableName", c.table());
        ObjectNode d = r.putObject("dynamodb");
        d.put("ApproximateCreationDateTime", timestamp(c.committedAt(), precision));
        d.set("Keys", c.keys().deepCopy());
        long size = WireItemSize.ofAttributes(c.keys());
        if (c.newImage() != null) {
            d.set("NewImage", c.newImage().deepCopy());
            size += WireItemSize.ofAttributes(c.newImage());
        }
        if (c.oldImage() != null) {
            d.set("OldImage", c.oldImage().deepCopy());
            size += WireItemSize.ofAttributes(c.oldImage());
        }
        d.put("SizeBytes", size);
        d.put("ApproximateCreationDateTimePrecision", precision);
        r.put("eventSource", "aws:dynamodb");
        return r;
    }

    private static long timestamp(Instant t, String precision) {
        if (MICROSECOND.equals(precision)) {
            return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
        }
        return t.toEpochMilli();
    }
}
