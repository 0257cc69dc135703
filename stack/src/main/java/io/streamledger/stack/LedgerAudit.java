package io.streamledger.stack;

import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.items.BatchItems;
import io.streamledger.aws.items.BreakItems;
import io.streamledger.aws.items.BreakView;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Reads the stack's tables after a run and checks the ledger and view invariants the summary
 * reports: balanced transactions per currency/asset (CS11, AP10), one inbox receipt per posted fill
 * (AP09), Portfolio rows equal to the AP12 authorities they project within the view's scope
 * (AP07/AP13, {@link ViewScope}), and the orders' AP12 reservations by state, open AP15 breaks by
 * age and AP14 batches by state.
 */
final class LedgerAudit {

    /** Items per scan page: bounds each response of the audit's full scans. */
    private static final int PAGE = 1_000;

    /** What the tables say. */
    record Result(
            long ledgerTransactions,
            long unbalancedTransactions,
            long postingLines,
            long inboxReceipts,
            long authorities,
            ViewScope viewScope,
            long authoritiesInViewScope,
            long portfolioRows,
            long portfolioRowsBehind,
            long portfolioRowsWithOpenGap,
            long authoritiesNotEqualToPostings,
            long orders,
            long trades,
            Map<String, Long> breaksByReason,
            Map<String, Long> deadLettersByReason,
            Map<String, Long> rejectedByReason,
            Map<String, Long> reservationsByState,
            Map<String, Long> openBreaksByAge,
            Map<String, Long> batchesByState) {

        /** The view holds exactly the authorities of its scope, each at its version. */
        boolean viewMatchesAuthority() {
            return authoritiesInViewScope == portfolioRows && portfolioRowsBehind == 0;
        }
    }

    private final DynamoDbClient ddb;
    private final StackServices services;

    LedgerAudit(DynamoDbClient ddb, StackServices services) {
        this.ddb = ddb;
        this.services = services;
    }

    Result run() {
        Map<String, Map<String, BigDecimal>> sums = new HashMap<>();
        Map<String, Long> authorityVersion = new HashMap<>();
        Map<String, Long> inViewScope = new HashMap<>();
        ViewScope scope = services.viewScope();
        Map<String, BigDecimal> postedByAsset = new HashMap<>();
        Map<String, BigDecimal> authorityPosted = new HashMap<>();
        long lines = 0;
        Map<String, Long> reservations = new java.util.TreeMap<>();
        for (var item : scan(services.table(Tables.LEDGER))) {
            String sk = item.get("SK").s();
            if (LedgerSchema.isReservation(sk)) {
                reservations.merge(item.get(LedgerSchema.RESERVATION_STATE).s(), 1L, Long::sum);
            } else if (sk.startsWith("POST#")) {
                lines++;
                String asset = item.get("assetType").s() + "/" + item.get("asset").s();
                BigDecimal amount = new BigDecimal(item.get("amount").n());
                sums.computeIfAbsent(item.get("txnId").s(), k -> new HashMap<>())
                        .merge(asset, amount, BigDecimal::add);
                postedByAsset.merge(assetKey(item), amount, BigDecimal::add);
            } else if (sk.startsWith("AUTH#")) {
                authorityVersion.put(assetKey(item), Long.parseLong(item.get("version").n()));
                if (scope.includes(item.get("accountId").s())) {
                    inViewScope.put(assetKey(item), Long.parseLong(item.get("version").n()));
                }
                authorityPosted.put(assetKey(item), new BigDecimal(item.get("posted").n()));
            }
        }
        long unbalanced =
                sums.values().stream()
                        .filter(m -> m.values().stream().anyMatch(v -> v.signum() != 0))
                        .count();
        // the independent oracle: each authority's posted balance == the sum of its posting lines
        long notEqual =
                authorityPosted.entrySet().stream()
                        .filter(
                                e ->
                                        postedByAsset
                                                        .getOrDefault(e.getKey(), BigDecimal.ZERO)
                                                        .compareTo(e.getValue())
                                                != 0)
                        .count();
        long rows = 0;
        long behind = 0;
        long gaps = 0;
        for (var row : scan(services.portfolioTable())) {
            rows++;
            // a row outside the view's scope has no authority to match: it counts as behind
            Long auth = inViewScope.get(assetKey(row));
            long v = Long.parseLong(row.get("sourceVersion").n());
            if (auth == null || v != auth) {
                behind++;
            }
            AttributeValue gap = row.get("gapOpen");
            if (gap != null && Boolean.TRUE.equals(gap.bool())) {
                gaps++;
            }
        }
        long orders =
                scan(services.table(Tables.ORDERS)).stream()
                        .filter(i -> "META".equals(i.get("SK").s()))
                        .count();
        long trades =
                scan(services.table(Tables.EXECUTION)).stream()
                        .filter(i -> i.get("SK").s().startsWith("TRADE#"))
                        .count();
        Map<String, Long> breaks = new java.util.TreeMap<>();
        Map<String, Long> openByAge = new java.util.TreeMap<>();
        Map<String, Long> batches = new java.util.TreeMap<>();
        Instant now = Instant.now();
        for (var item : scan(services.table(Tables.RECONCILIATION))) {
            AttributeValue type = item.get(Attr.ENTITY_TYPE);
            if (type != null && BatchItems.ENTITY.equals(type.s())) {
                batches.merge(
                        BatchItems.view(item).closed()
                                ? BatchItems.STATE_CLOSED
                                : BatchItems.STATE_PROVISIONAL,
                        1L,
                        Long::sum);
            }
            if (type != null && BreakItems.ENTITY.equals(type.s())) {
                BreakView v = BreakItems.view(item);
                if (v.status().queued()) {
                    Instant detected = KeyTime.parse(BreakItems.A_DETECTED, v.detectedAt());
                    openByAge.merge(
                            OpsLinks.ageBucket(Duration.between(detected, now)), 1L, Long::sum);
                }
                AttributeValue origin = item.get(BreakItems.A_ORIGIN);
                AttributeValue reason = item.get(BreakItems.A_REASON);
                breaks.merge(
                        (origin == null ? "?" : origin.s())
                                + "/"
                                + (reason == null ? "?" : reason.s()),
                        1L,
                        Long::sum);
            }
        }
        Map<String, Long> deadLetters = new java.util.TreeMap<>();
        Map<String, Long> rejected = new java.util.TreeMap<>();
        for (var item : scan(services.table(Tables.DEAD_LETTER))) {
            AttributeValue type = item.get(Attr.ENTITY_TYPE);
            if (type == null || !DeadLetterItems.ENTITY.equals(type.s())) {
                continue;
            }
            String reason = item.get(DeadLetterItems.A_REASON).s();
            deadLetters.merge(reason, 1L, Long::sum);
            if (DeadLetterReason.REJECTED_FILL.name().equals(reason)) {
                rejected.merge(rejectionCode(item), 1L, Long::sum);
            }
        }
        return new Result(
                sums.size(),
                unbalanced,
                lines,
                scan(services.table(Tables.INBOX)).size(),
                authorityVersion.size(),
                scope,
                inViewScope.size(),
                rows,
                behind,
                gaps,
                notEqual,
                orders,
                trades,
                breaks,
                deadLetters,
                rejected,
                reservations,
                OpsLinks.ordered(openByAge),
                batches);
    }

    /** The named rule of a rejected record: its detail reads {@code CODE: message}. */
    private static String rejectionCode(Map<String, AttributeValue> item) {
        AttributeValue d = item.get(DeadLetterItems.A_DETAIL);
        String detail = d == null ? "" : d.s();
        int colon = detail.indexOf(':');
        return colon > 0 ? detail.substring(0, colon) : detail.isEmpty() ? "?" : detail;
    }

    /** Inbox receipts only (cheap enough to poll while draining). */
    long inboxReceipts() {
        return scan(services.table(Tables.INBOX)).size();
    }

    private static String assetKey(Map<String, AttributeValue> item) {
        return item.get("tenant").s()
                + "/"
                + item.get("accountId").s()
                + "/"
                + item.get("assetType").s()
                + "/"
                + item.get("asset").s();
    }

    private List<Map<String, AttributeValue>> scan(String table) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder r =
                    ScanRequest.builder().tableName(table).consistentRead(true).limit(PAGE);
            if (start != null) {
                r.exclusiveStartKey(start);
            }
            ScanResponse resp = ddb.scan(r.build());
            out.addAll(resp.items());
            start =
                    resp.hasLastEvaluatedKey() && !resp.lastEvaluatedKey().isEmpty()
                            ? resp.lastEvaluatedKey()
                            : null;
        } while (start != null);
        return out;
    }
}
