package io.streamledger.jobs.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.AttributeValueJson;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.Transport;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Bounded test inputs for the jobs: raw Kinesis records over a list, no endpoint. */
public final class TestRecords {

    private TestRecords() {}

    /** A bounded source of {@code records}, in order, on one shard. */
    public static RawChangeSource source(List<RawChange> records) {
        List<RawChange> copy = new ArrayList<>(records);
        return env -> env.fromData(copy, SourceTypes.RAW_CHANGE);
    }

    /** A Kinesis record carrying {@code data}, at sequence {@code seq}. */
    public static RawChange kinesis(long seq, String data) {
        return new RawChange(
                Transport.KINESIS.name(),
                "arn:aws:kinesis:us-east-1:000000000000:stream/test",
                "shardId-000000000000",
                Long.toString(seq),
                1_000L + seq,
                data.getBytes(StandardCharsets.UTF_8));
    }

    /** A relayed TradeExecuted envelope (OutboxEvent JSON). */
    public static String tradeExecuted(
            String eventId, String tenant, String account, String side, String qty, String px) {
        Map<String, AttributeValue> p = new LinkedHashMap<>();
        p.put("tenant", AttributeValue.s(tenant));
        p.put("tradeId", AttributeValue.s("tr-" + eventId));
        p.put("fillId", AttributeValue.s("f-" + eventId));
        p.put("orderId", AttributeValue.s("o-" + eventId));
        p.put("accountId", AttributeValue.s(account));
        p.put("symbol", AttributeValue.s("NVDA"));
        p.put("side", AttributeValue.s(side));
        p.put("quantity", AttributeValue.n(new BigDecimal(qty)));
        p.put("price", AttributeValue.n(new BigDecimal(px)));
        p.put("currency", AttributeValue.s("USD"));
        p.put("executedAt", AttributeValue.s("2026-11-30T10:00:00Z"));
        return new OutboxEvent(
                        eventId,
                        "Order",
                        "o-" + eventId,
                        2,
                        "TradeExecuted",
                        1,
                        Instant.parse("2026-11-30T10:00:00Z"),
                        "trace-" + eventId,
                        null,
                        p)
                .toJson();
    }

    /**
     * A "Kinesis Data Streams for DynamoDB" INSERT of {@code table} with string/number attributes
     * ({@code N:} prefix marks a number).
     */
    public static String insert(
            String eventId, String table, long createdMillis, Map<String, String> image) {
        StringBuilder img = new StringBuilder();
        for (Map.Entry<String, String> a : image.entrySet()) {
            if (img.length() > 0) {
                img.append(',');
            }
            String v = a.getValue();
            img.append('"').append(a.getKey()).append("\":");
            if (v.startsWith("N:")) {
                img.append("{\"N\":\"").append(v.substring(2)).append("\"}");
            } else {
                img.append("{\"S\":\"").append(v).append("\"}");
            }
        }
        return "{\"awsRegion\":\"us-east-1\",\"eventID\":\""
                + eventId
                + "\",\"eventName\":\"INSERT\",\"userIdentity\":null,"
                + "\"recordFormat\":\"application/json\",\"tableName\":\""
                + table
                + "\",\"dynamodb\":{\"ApproximateCreationDateTime\":"
                + createdMillis
                + ",\"Keys\":{\"PK\":{\"S\":\""
                + image.get("PK")
                + "\"},\"SK\":{\"S\":\""
                + image.get("SK")
                + "\"}},\"NewImage\":{"
                + img
                + "},\"SizeBytes\":100,\"ApproximateCreationDateTimePrecision\":\"MILLISECOND\"},"
                + "\"eventSource\":\"aws:dynamodb\"}";
    }

    /**
     * A DynamoDB Streams record of {@code item} as the Streams connector hands it to the job
     * (creation time in epoch milliseconds, see {@code ConnectorRecordJson}).
     */
    public static String streamsRecord(
            String eventName,
            Map<String, AttributeValue> item,
            long seq,
            long createdMillis,
            String viewType) {
        Map<String, AttributeValue> keys = new LinkedHashMap<>();
        keys.put(Attr.PK, item.get(Attr.PK));
        keys.put(Attr.SK, item.get(Attr.SK));
        ObjectNode r = JsonNodeFactory.instance.objectNode();
        r.put("eventID", "ev-" + seq);
        r.put("eventName", eventName);
        r.put("eventVersion", "1.1");
        r.put("eventSource", "aws:dynamodb");
        r.put("awsRegion", "us-east-1");
        ObjectNode d = r.putObject("dynamodb");
        d.put("ApproximateCreationDateTime", createdMillis);
        d.set("Keys", AttributeValueJson.writeItem(keys));
        d.set("NewImage", AttributeValueJson.writeItem(item));
        d.put("SequenceNumber", String.format("%021d", seq));
        d.put("SizeBytes", 100);
        d.put("StreamViewType", viewType);
        return r.toString();
    }

    /** A stored dead-letter entry as a replay source reads it: REPLAY_REQUESTED at version 3. */
    public static DeadLetterView replayRequested(
            String tenant,
            String job,
            DeadLetterReason reason,
            String payload,
            String encoding,
            String position) {
        Instant at = Instant.parse("2026-12-01T10:00:00Z");
        return new DeadLetterView(
                tenant,
                job,
                "op",
                reason,
                "id1",
                "detail",
                payload,
                encoding,
                "origin",
                position,
                null,
                0,
                at,
                at,
                1,
                DeadLetterStatus.REPLAY_REQUESTED,
                3,
                List.of());
    }
}
