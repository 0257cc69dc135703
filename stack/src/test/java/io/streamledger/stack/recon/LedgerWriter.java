package io.streamledger.stack.recon;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.PostingKey;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Writes ledger items straight to the endpoint with the SDK, bypassing the command service, in the
 * shapes the command service and the posting job write (IDX10 postings with {@code lineCount},
 * IDX11 authorities): the test's way to build a clean ledger and to inject exactly one violation.
 */
public final class LedgerWriter {

    public record Line(String account, String ccy, String amount) {}

    /** Current authority state per account/ccy, as this writer left it. */
    public record Auth(long version, BigDecimal posted, BigDecimal reserved) {}

    private final DynamoDbClient ddb;
    private final String table;
    private final String tenant;
    private final Map<String, Auth> auth = new HashMap<>();
    private final Map<String, Long> sequence = new HashMap<>();
    private Instant clock;

    public LedgerWriter(DynamoDbClient ddb, String table, String tenant, Instant start) {
        this.ddb = ddb;
        this.table = table;
        this.tenant = tenant;
        this.clock = start;
    }

    public static Line line(String account, String ccy, String amount) {
        return new Line(account, ccy, amount);
    }

    /** A transaction: postings (declared line count = lines.size()) and matching authorities. */
    public void txn(String txnId, Line... lines) {
        postings(txnId, lines.length, lines);
        Map<String, BigDecimal> deltas = new LinkedHashMap<>();
        for (Line l : lines) {
            deltas.merge(l.account() + "|" + l.ccy(), new BigDecimal(l.amount()), BigDecimal::add);
        }
        deltas.forEach(
                (k, d) -> {
                    String[] p = k.split("\\|");
                    authority(p[0], p[1], d, BigDecimal.ZERO, txnId);
                });
    }

    /** Only the posting rows, with {@code lineCount} declared (may exceed the lines written). */
    public List<Map<String, AttributeValue>> postings(String txnId, int lineCount, Line... lines) {
        clock = clock.plusMillis(1);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        int n = 0;
        for (Line l : lines) {
            n++;
            items.add(posting(txnId, n, lineCount, l));
        }
        write(items);
        return items;
    }

    public Map<String, AttributeValue> posting(String txnId, int lineNo, int lineCount, Line l) {
        YearMonth month = YearMonth.from(clock.atZone(ZoneOffset.UTC));
        PostingKey key = new PostingKey(tenant, l.account(), month, 0, clock, txnId, lineNo);
        long seq = sequence.merge(l.account() + "|" + month, 1L, Long::sum);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", s(key.pk()));
        item.put("SK", s(key.sk()));
        item.put("tenant", s(tenant));
        item.put("txnId", s(txnId));
        item.put("sourceId", s("src-" + txnId));
        item.put("line", n(lineNo));
        item.put("lineCount", n(lineCount));
        item.put("accountId", s(l.account()));
        item.put("assetType", s("CASH"));
        item.put("asset", s(l.ccy()));
        item.put("amount", AttributeValue.fromN(l.amount()));
        item.put("sequence", n(seq));
        item.put("recordedAt", s(clock.toString()));
        return item;
    }

    /** An authority write moving posted by {@code postedDelta} and reserved by a delta. */
    public void authority(
            String account,
            String ccy,
            BigDecimal postedDelta,
            BigDecimal reservedDelta,
            String txn) {
        Auth a =
                auth.getOrDefault(
                        account + "|" + ccy, new Auth(0, BigDecimal.ZERO, BigDecimal.ZERO));
        Auth next =
                new Auth(
                        a.version() + 1,
                        a.posted().add(postedDelta),
                        a.reserved().add(reservedDelta));
        authorityRaw(
                account,
                ccy,
                next.version(),
                next.posted(),
                next.reserved(),
                next.posted().subtract(next.reserved()),
                txn);
    }

    /** Writes an authority item exactly as given (the way to inject a bad one). */
    public void authorityRaw(
            String account,
            String ccy,
            long version,
            BigDecimal posted,
            BigDecimal reserved,
            BigDecimal available,
            String txn) {
        AuthorityKey key = AuthorityKey.cash(tenant, account, ccy);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", s(key.pk()));
        item.put("SK", s(key.sk()));
        item.put("tenant", s(tenant));
        item.put("accountId", s(account));
        item.put("assetType", s("CASH"));
        item.put("asset", s(ccy));
        item.put("posted", AttributeValue.fromN(posted.toPlainString()));
        item.put("reserved", AttributeValue.fromN(reserved.toPlainString()));
        item.put("available", AttributeValue.fromN(available.toPlainString()));
        item.put("version", n(version));
        item.put("lastTxnId", s(txn));
        item.put("updatedAt", s(clock.toString()));
        ddb.putItem(b -> b.tableName(table).item(item));
        auth.put(account + "|" + ccy, new Auth(version, posted, reserved));
    }

    public Auth authOf(String account, String ccy) {
        return auth.get(account + "|" + ccy);
    }

    private void write(List<Map<String, AttributeValue>> items) {
        for (int i = 0; i < items.size(); i += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (Map<String, AttributeValue> item :
                    items.subList(i, Math.min(items.size(), i + 25))) {
                batch.add(
                        WriteRequest.builder()
                                .putRequest(PutRequest.builder().item(item).build())
                                .build());
            }
            Map<String, List<WriteRequest>> pending = Map.of(table, batch);
            while (!pending.isEmpty()) {
                var resp =
                        ddb.batchWriteItem(
                                BatchWriteItemRequest.builder().requestItems(pending).build());
                pending = resp.hasUnprocessedItems() ? resp.unprocessedItems() : Map.of();
            }
        }
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }
}
