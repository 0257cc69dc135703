package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.streamledger.aws.items.BatchItems;
import io.streamledger.aws.items.BreakItems;
import io.streamledger.aws.items.BreakView;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.api.StrictJson;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.ReconBatchKey;
import io.streamledger.model.keys.ReconBreakKey;
import io.streamledger.model.table.Attr;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * AP14 reads for Finance Ops: a business date's reconciliation batches (IDX13 Query, one partition,
 * paginated) and one batch (strong read) with its window, manifest, control totals, outcome, breaks
 * count and the first page of its breaks (IDX14).
 */
public final class BatchQueries {
    /** The metrics tag of its DynamoDB calls: AP14 batches (IDX13). */
    private static final String AP = "AP14";

    public static final int MAX_PAGE = 100;

    private final DynamoDbClient ddb;
    private final String table;

    public BatchQueries(DynamoDbClient ddb, String table) {
        this.ddb = ddb;
        this.table = table;
    }

    void register(Javalin app) {
        app.get(
                "/v1/ops/recon/batches",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("date", "limit", "cursor", "tenant"));
                    HttpApi.writeRead(
                            ctx,
                            list(
                                    HttpApi.tenant(ctx),
                                    requiredDate(ctx),
                                    ctx.queryParam("cursor"),
                                    pageLimit(ctx, MAX_PAGE, 50)));
                });
        app.get(
                "/v1/ops/recon/batches/{id}",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    String id = ctx.pathParam("id");
                    int colon = id.indexOf(':');
                    if (colon <= 0 || colon == id.length() - 1) {
                        throw ApiException.badRequest(
                                "INVALID_FIELD",
                                "a batch id is <yyyy-mm-dd>:<batchId>, as a listing returns it");
                    }
                    HttpApi.writeRead(
                            ctx,
                            show(
                                    HttpApi.tenant(ctx),
                                    date(id.substring(0, colon)),
                                    id.substring(colon + 1)));
                });
    }

    /** One page of a date's batches in batch-id order; the cursor is bound to tenant + date. */
    public ObjectNode list(String tenant, LocalDate date, String cursor, int limit) {
        String pk = new ReconBatchKey(tenant, date, "x").pk();
        Map<String, AttributeValue> start = cursor == null ? null : decode(cursor, pk);
        QueryResponse r =
                ddb.query(
                        q ->
                                ApTag.on(q, AP)
                                        .tableName(table)
                                        .keyConditionExpression(
                                                "#pk = :pk AND begins_with(#sk, :batch)")
                                        .expressionAttributeNames(
                                                Map.of("#pk", Attr.PK, "#sk", Attr.SK))
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":pk",
                                                        AttributeValue.fromS(pk),
                                                        ":batch",
                                                        AttributeValue.fromS(
                                                                KeyPaths.IDX13_SK.literalPrefix())))
                                        .exclusiveStartKey(start)
                                        .limit(limit));
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        ArrayNode items = o.putArray("items");
        r.items().forEach(i -> items.add(doc(i)));
        boolean more = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty();
        o.put("cursor", more ? encode(r.lastEvaluatedKey().get(Attr.SK).s(), pk) : null);
        return o;
    }

    /** One batch (strong) with the first {@link #MAX_PAGE} of its breaks. */
    public ObjectNode show(String tenant, LocalDate date, String batchId) {
        ReconBatchKey k = new ReconBatchKey(tenant, date, batchId);
        Map<String, AttributeValue> item = StrongRead.item(ddb, AP, table, k.pk(), k.sk());
        if (item == null) {
            throw ApiException.notFound("no batch " + date + ":" + batchId);
        }
        ObjectNode o = doc(item);
        String breaksPk = new ReconBreakKey(tenant, batchId, "x").pk();
        QueryResponse br =
                ddb.query(
                        q ->
                                ApTag.on(q, "AP15")
                                        .tableName(table)
                                        .keyConditionExpression(
                                                "#pk = :pk AND begins_with(#sk, :brk)")
                                        .expressionAttributeNames(
                                                Map.of("#pk", Attr.PK, "#sk", Attr.SK))
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":pk",
                                                        AttributeValue.fromS(breaksPk),
                                                        ":brk",
                                                        AttributeValue.fromS(
                                                                KeyPaths.IDX14_SK.literalPrefix())))
                                        .consistentRead(true)
                                        .limit(MAX_PAGE));
        ArrayNode breaks = o.putArray("breaks");
        for (Map<String, AttributeValue> b : br.items()) {
            BreakView v = BreakItems.view(b);
            breaks.addObject()
                    .put("id", BreakRef.format(v.batchId(), v.breakId()))
                    .put("breakId", v.breakId())
                    .put("reason", v.reason())
                    .put("status", v.status().name())
                    .put("owner", v.owner())
                    .put("dueAt", v.dueAt())
                    .put("version", v.version());
        }
        o.put("breaksTruncated", br.hasLastEvaluatedKey() && !br.lastEvaluatedKey().isEmpty());
        return o;
    }

    private static ObjectNode doc(Map<String, AttributeValue> i) {
        BatchItems.Batch b = BatchItems.view(i);
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("id", b.date() + ":" + b.batchId());
        o.put("tenant", b.tenant());
        o.put("date", b.date().toString());
        o.put("batchId", b.batchId());
        o.put("windowStart", b.windowStart().toString());
        o.put("windowEnd", b.windowEnd().toString());
        o.put("allowedLatenessMillis", b.allowedLatenessMillis());
        o.set("manifest", json(b.manifest()));
        o.set("controlTotals", json(b.controlTotals()));
        o.put("outcome", b.outcome());
        o.put("state", b.closed() ? BatchItems.STATE_CLOSED : BatchItems.STATE_PROVISIONAL);
        o.put("breakCount", b.breakCount());
        o.put("revision", BatchItems.revision(i));
        return o;
    }

    /** A stored JSON attribute as JSON (text when it does not parse); null stays null. */
    static JsonNode json(String s) {
        if (s == null) {
            return StrictJson.MAPPER.nullNode();
        }
        try {
            return StrictJson.MAPPER.readTree(s);
        } catch (Exception e) {
            return StrictJson.MAPPER.getNodeFactory().textNode(s);
        }
    }

    /** The required {@code date} query parameter of a per-day listing ({@code yyyy-mm-dd}). */
    static LocalDate requiredDate(Context ctx) {
        String d = ctx.queryParam("date");
        if (d == null || d.isEmpty()) {
            throw ApiException.badRequest(
                    "MISSING_PARAMETER", "query parameter 'date' is required");
        }
        return date(d);
    }

    /** The {@code limit} query parameter in [1, max], {@code dflt} when absent. */
    static int pageLimit(Context ctx, int max, int dflt) {
        Integer limit = HttpApi.limit(ctx);
        if (limit != null && (limit < 1 || limit > max)) {
            throw ApiException.badRequest("INVALID_FIELD", "limit must be in [1, " + max + "]");
        }
        return limit == null ? dflt : limit;
    }

    static LocalDate date(String d) {
        try {
            return LocalDate.parse(d);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "date must be yyyy-mm-dd, got '" + d + "'");
        }
    }

    // cursor = base64url(pk \n last sk): bound to this tenant + date partition
    private static String encode(String sk, String pk) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((pk + "\n" + sk).getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, AttributeValue> decode(String cursor, String pk) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("INVALID_CURSOR", "cursor is not base64url");
        }
        int nl = text.indexOf('\n');
        if (nl < 0 || !text.substring(0, nl).equals(pk)) {
            throw ApiException.badRequest(
                    "INVALID_CURSOR", "cursor belongs to another tenant or date");
        }
        Map<String, AttributeValue> k = new HashMap<>();
        k.put(Attr.PK, AttributeValue.fromS(pk));
        k.put(Attr.SK, AttributeValue.fromS(text.substring(nl + 1)));
        return k;
    }
}
