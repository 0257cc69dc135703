package io.streamledger.command.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.Schema;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.orders.OrderQueries;
import io.streamledger.model.keys.KeyFields;
import io.streamledger.model.keys.KeyFormatException;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingSequence;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.YearMonth;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * AP11 statement read of one account-month (IDX10): the month's posting buckets merged in posting
 * order (their sort key, {@code POST#at#txn#line}), strongly read, in bounded pages with one opaque
 * cursor that holds one position per bucket and the running control totals, bound to
 * tenant/account/month/asset; and the month's summary per asset, whose closing balance is the AP12
 * authority's posted less what later months posted.
 */
public final class StatementQueries {

    /** Queries one page may issue before it returns what it has (empty filtered pages included). */
    static final int MAX_QUERIES_PER_PAGE = 64;

    /** Months after the requested one a summary walks back from the authority. */
    static final int MAX_SUMMARY_MONTHS = 24;

    private final Ddb ddb;
    private final TableNames tables;
    private final java.time.Clock clock;

    public StatementQueries(Ddb ddb, TableNames tables, java.time.Clock clock) {
        this.ddb = ddb;
        this.tables = tables;
        this.clock = clock;
    }

    /** One bucket's read position: the last SK consumed, whether DynamoDB has more. */
    private static final class Bucket {
        final int index;
        @Nullable String after; // exclusive start SK; null = from the start
        boolean exhausted;
        final ArrayDeque<Map<String, AttributeValue>> buffer = new ArrayDeque<>();
        @Nullable String lastEvaluated; // SK DynamoDB stopped at after the buffered items

        Bucket(int index, @Nullable String after, boolean exhausted) {
            this.index = index;
            this.after = after;
            this.exhausted = exhausted;
        }
    }

    /** GET /v1/accounts/{a}/ledger?month=&asset=&limit=&cursor=. */
    public ObjectNode page(
            String tenant,
            String accountId,
            String monthText,
            @Nullable String asset,
            @Nullable Integer limit,
            @Nullable String cursor,
            CapacityMeter meter) {
        Fields.checkId("account id", accountId);
        YearMonth month = month(monthText);
        if (asset != null) {
            Fields.checkId("asset", asset);
        }
        int pageSize = OrderQueries.pageSize(limit);
        String binding = tenant + "/" + accountId + "/" + KeyFields.month(month) + "/" + asset;
        int buckets = bucketCount(tenant, accountId, month, meter);
        List<Bucket> state = new ArrayList<>();
        Map<String, BigDecimal> totals = new TreeMap<>();
        decode(cursor, binding, buckets, state, totals);

        ArrayNode postings = StrictJson.MAPPER.createArrayNode();
        int queries = 0;
        boolean cut = false;
        while (postings.size() < pageSize) {
            // every bucket that may still hold postings needs a head before the smallest is known
            for (Bucket b : state) {
                while (b.buffer.isEmpty() && !b.exhausted && queries < MAX_QUERIES_PER_PAGE) {
                    fetch(tenant, accountId, month, asset, pageSize, b, meter);
                    queries++;
                }
            }
            Bucket next = null;
            for (Bucket b : state) {
                if (b.buffer.isEmpty()) {
                    if (!b.exhausted) {
                        cut = true; // out of queries for this page: resume from the cursor
                    }
                    continue;
                }
                if (next == null
                        || sk(b.buffer.peekFirst()).compareTo(sk(next.buffer.peekFirst())) < 0) {
                    next = b;
                }
            }
            if (cut || next == null) {
                break;
            }
            Map<String, AttributeValue> item = next.buffer.pollFirst();
            next.after = sk(item);
            postings.add(view(item, totals));
        }

        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        body.put("accountId", accountId);
        body.put("month", KeyFields.month(month));
        if (asset != null) {
            body.put("asset", asset);
        }
        body.set("postings", postings);
        ObjectNode control = body.putObject("controlTotals");
        totals.forEach((k, v) -> control.put(k, v.toPlainString()));
        body.put("cursor", encode(binding, state, totals));
        body.put("consistency", "strong");
        return body;
    }

    /** GET /v1/accounts/{a}/ledger/summary?month=: per asset, equal to the AP12 authority. */
    public ObjectNode summary(
            String tenant, String accountId, String monthText, CapacityMeter meter) {
        Fields.checkId("account id", accountId);
        YearMonth month = month(monthText);
        YearMonth current = YearMonth.now(clock.withZone(java.time.ZoneOffset.UTC));
        if (month.isAfter(current)) {
            throw ApiException.badRequest("INVALID_FIELD", "month " + month + " is in the future");
        }
        if (month.plusMonths(MAX_SUMMARY_MONTHS).isBefore(current)) {
            throw ApiException.unprocessable(
                    "MONTH_TOO_OLD",
                    "a summary reaches back " + MAX_SUMMARY_MONTHS + " months from the authority");
        }
        Map<String, Totals> monthTotals = totals(tenant, accountId, month, meter);
        Map<String, BigDecimal> later = new TreeMap<>();
        for (YearMonth m = month.plusMonths(1); !m.isAfter(current); m = m.plusMonths(1)) {
            totals(tenant, accountId, m, meter)
                    .forEach((k, t) -> later.merge(k, t.net(), BigDecimal::add));
        }
        Map<String, BigDecimal> posted = new TreeMap<>();
        for (Authority a : new BalanceQueries(ddb, tables).authorities(tenant, accountId, meter)) {
            posted.put(a.asset().type().name() + "/" + a.asset().code(), a.posted());
        }
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        body.put("accountId", accountId);
        body.put("month", KeyFields.month(month));
        ObjectNode assets = body.putObject("assets");
        java.util.Set<String> keys = new java.util.TreeSet<>(monthTotals.keySet());
        keys.addAll(posted.keySet());
        for (String k : keys) {
            Totals t = monthTotals.getOrDefault(k, new Totals());
            BigDecimal closing =
                    posted.getOrDefault(k, BigDecimal.ZERO)
                            .subtract(later.getOrDefault(k, BigDecimal.ZERO));
            ObjectNode o = assets.putObject(k);
            o.put("opening", closing.subtract(t.net()).toPlainString());
            o.put("debits", t.debits.toPlainString());
            o.put("credits", t.credits.toPlainString());
            o.put("closing", closing.toPlainString());
            o.put("postings", t.count);
        }
        body.put("consistency", "strong");
        return body;
    }

    /** Debit (negative) and credit (positive) totals of one asset over a month. */
    private static final class Totals {
        BigDecimal debits = BigDecimal.ZERO;
        BigDecimal credits = BigDecimal.ZERO;
        long count;

        BigDecimal net() {
            return credits.subtract(debits);
        }
    }

    private Map<String, Totals> totals(
            String tenant, String accountId, YearMonth month, CapacityMeter meter) {
        Map<String, Totals> out = new TreeMap<>();
        int buckets = bucketCount(tenant, accountId, month, meter);
        for (int i = 0; i < buckets; i++) {
            Bucket b = new Bucket(i, null, false);
            while (!b.exhausted) {
                fetch(tenant, accountId, month, null, OrderQueries.MAX_PAGE, b, meter);
                for (Map<String, AttributeValue> item : b.buffer) {
                    Totals t = out.computeIfAbsent(assetKey(item), k -> new Totals());
                    BigDecimal amount = Av.dec(item, LedgerSchema.AMOUNT);
                    if (amount.signum() < 0) {
                        t.debits = t.debits.add(amount.negate());
                    } else {
                        t.credits = t.credits.add(amount);
                    }
                    t.count++;
                }
                b.buffer.clear();
                b.after = b.lastEvaluated;
            }
        }
        return out;
    }

    /** Buckets 0..n-1 of the month, from its AP10 counter (none without postings). */
    private int bucketCount(String tenant, String accountId, YearMonth month, CapacityMeter meter) {
        Map<String, AttributeValue> counter =
                ddb.getStrong(
                        tables.ledger(),
                        LedgerItemCodec.key(new MonthCounterKey(tenant, accountId, month)),
                        meter);
        PostingSequence.Counter c = LedgerItemCodec.counterFrom(counter);
        return c.version() == 0 ? 0 : c.bucket() + 1;
    }

    private void fetch(
            String tenant,
            String accountId,
            YearMonth month,
            @Nullable String asset,
            int pageSize,
            Bucket b,
            CapacityMeter meter) {
        String pk =
                KeyPaths.IDX10_PK.build(
                        tenant, accountId, KeyFields.month(month), KeyFields.bucket(b.index));
        Map<String, String> names = new HashMap<>(Map.of("#pk", Schema.PK, "#sk", Schema.SK));
        Map<String, AttributeValue> values =
                new HashMap<>(
                        Map.of(":pk", Av.s(pk), ":post", Av.s(LedgerSchema.POSTING_SK_PREFIX)));
        QueryRequest.Builder q =
                QueryRequest.builder()
                        .tableName(tables.ledger())
                        .keyConditionExpression("#pk = :pk AND begins_with(#sk, :post)")
                        .consistentRead(true)
                        .limit(pageSize);
        if (asset != null) {
            names.put("#asset", LedgerSchema.ASSET);
            values.put(":asset", Av.s(asset));
            q.filterExpression("#asset = :asset");
        }
        q.expressionAttributeNames(names).expressionAttributeValues(values);
        String start = b.lastEvaluated != null ? b.lastEvaluated : b.after;
        if (start != null) {
            q.exclusiveStartKey(Map.of(Schema.PK, Av.s(pk), Schema.SK, Av.s(start)));
        }
        QueryResponse r = ddb.query(q, meter);
        b.buffer.addAll(r.items());
        if (r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()) {
            b.lastEvaluated = r.lastEvaluatedKey().get(Schema.SK).s();
        } else {
            b.exhausted = true;
        }
    }

    private static ObjectNode view(
            Map<String, AttributeValue> item, Map<String, BigDecimal> totals) {
        String asset = assetKey(item);
        BigDecimal amount = Av.dec(item, LedgerSchema.AMOUNT);
        BigDecimal running = totals.merge(asset, amount, BigDecimal::add);
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        PostingKey key = PostingKey.parse(item.get(Schema.PK).s(), sk(item));
        o.put("postedAt", key.at().toString());
        o.put("bucket", key.bucket());
        o.put("txnId", Av.reqStr(item, LedgerSchema.TXN_ID));
        o.put("sourceId", Av.str(item, LedgerSchema.SOURCE_ID));
        o.put("line", Av.lng(item, LedgerSchema.LINE, 0));
        o.put("sequence", Av.lng(item, LedgerSchema.SEQUENCE, 0));
        o.put("assetType", Av.reqStr(item, LedgerSchema.ASSET_TYPE));
        o.put("asset", Av.reqStr(item, LedgerSchema.ASSET));
        o.put("amount", amount.toPlainString());
        o.put("recordedAt", Av.str(item, LedgerSchema.RECORDED_AT));
        o.put("runningTotal", running.toPlainString());
        return o;
    }

    private static String assetKey(Map<String, AttributeValue> item) {
        return Av.reqStr(item, LedgerSchema.ASSET_TYPE) + "/" + Av.reqStr(item, LedgerSchema.ASSET);
    }

    private static String sk(Map<String, AttributeValue> item) {
        return item.get(Schema.SK).s();
    }

    private static YearMonth month(String text) {
        if (text == null) {
            throw ApiException.badRequest(
                    "MISSING_FIELD", "query parameter 'month' (yyyy-mm) is required");
        }
        try {
            return KeyFields.parseMonth(text);
        } catch (KeyFormatException e) {
            throw ApiException.badRequest("INVALID_FIELD", "month " + e.getMessage());
        }
    }

    /**
     * The cursor: base64url JSON {@code {q, b: [[after, done]…], t: {asset: total}}}; {@code q}
     * binds it to tenant/account/month/asset. Null when every bucket is read to its end.
     */
    @Nullable
    private static String encode(
            String binding, List<Bucket> state, Map<String, BigDecimal> totals) {
        boolean more = false;
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("q", binding);
        ArrayNode bs = o.putArray("b");
        for (Bucket b : state) {
            // a drained buffer resumes after DynamoDB's last key (its items were consumed or
            // filtered out)
            String after =
                    b.buffer.isEmpty() && b.lastEvaluated != null ? b.lastEvaluated : b.after;
            boolean done = b.buffer.isEmpty() && b.exhausted;
            more |= !done;
            ArrayNode e = bs.addArray();
            e.add(after);
            e.add(done);
        }
        ObjectNode t = o.putObject("t");
        totals.forEach((k, v) -> t.put(k, v.toPlainString()));
        if (!more) {
            return null;
        }
        try {
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(StrictJson.MAPPER.writeValueAsBytes(o));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void decode(
            @Nullable String cursor,
            String binding,
            int buckets,
            List<Bucket> state,
            Map<String, BigDecimal> totals) {
        if (cursor == null || cursor.isEmpty()) {
            for (int i = 0; i < buckets; i++) {
                state.add(new Bucket(i, null, false));
            }
            return;
        }
        if (cursor.length() > 16_384) {
            throw invalid("is too long");
        }
        JsonNode node;
        try {
            node =
                    StrictJson.MAPPER.readTree(
                            new String(
                                    Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw invalid("is not a cursor issued by this service");
        }
        if (node == null || !node.isObject() || !binding.equals(node.path("q").asText(null))) {
            throw invalid("belongs to a different query");
        }
        JsonNode bs = node.path("b");
        if (!bs.isArray() || bs.size() > buckets) {
            throw invalid("does not have this month's buckets");
        }
        for (int i = 0; i < buckets; i++) {
            // a bucket opened after the cursor was issued starts from its beginning
            JsonNode e = i < bs.size() ? bs.get(i) : null;
            String after = e == null || e.get(0).isNull() ? null : e.get(0).asText();
            if (after != null && !after.startsWith(LedgerSchema.POSTING_SK_PREFIX)) {
                throw invalid("does not have this query's key shape");
            }
            state.add(new Bucket(i, after, e != null && e.get(1).asBoolean()));
        }
        node.path("t")
                .fields()
                .forEachRemaining(
                        f -> {
                            try {
                                totals.put(f.getKey(), new BigDecimal(f.getValue().asText()));
                            } catch (NumberFormatException x) {
                                throw invalid("does not have this query's totals");
                            }
                        });
    }

    private static ApiException invalid(String why) {
        return ApiException.badRequest("INVALID_CURSOR", "cursor " + why);
    }
}
