package io.streamledger.command.ledger;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.config.Schema;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.keys.ReversalKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingSequence;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Reads one ledger transaction back from the ledger itself (AP10 postings in IDX10, strong, the way
 * the AP11 statement reads them): the postings of a txnId on the accounts where it may have posted,
 * found by the exact sort-key prefix {@code POST#at#txn#} in each of the account-month's buckets,
 * and its durable reversal record. Whoever wrote the transaction (this service or the posting job),
 * no request record is needed.
 */
public final class LedgerTxnReader {

    /** At most this many accounts per transaction are searched (its lines are bounded too). */
    public static final int MAX_ACCOUNTS = 20;

    /**
     * Where a transaction's postings are: the posting time of its keys and its candidate accounts.
     */
    public record Location(Instant at, List<String> accounts) {
        public Location {
            accounts = List.copyOf(new LinkedHashSet<>(accounts));
            if (accounts.isEmpty() || accounts.size() > MAX_ACCOUNTS) {
                throw new IllegalArgumentException("1.." + MAX_ACCOUNTS + " accounts: " + accounts);
            }
        }

        public YearMonth month() {
            return LedgerSchema.month(at);
        }
    }

    /**
     * The postings found, in line order.
     *
     * @param lineCount the lines the transaction declares (0 when nothing was found)
     * @param sourceId its source business id (null when nothing was found)
     */
    public record Found(List<PostingLine> lines, int lineCount, @Nullable String sourceId) {

        public boolean none() {
            return lines.isEmpty();
        }

        /** Every declared line was found, once. */
        public boolean complete() {
            return !lines.isEmpty()
                    && lines.size() == lineCount
                    && lines.stream().map(PostingLine::line).distinct().count() == lineCount;
        }
    }

    private final Ddb ddb;
    private final TableNames tables;

    public LedgerTxnReader(Ddb ddb, TableNames tables) {
        this.ddb = ddb.ap("AP11");
        this.tables = tables;
    }

    /** The postings of {@code txnId} at {@code where}; one account's lines share one bucket. */
    public Found read(String tenant, String txnId, Location where, CapacityMeter meter) {
        List<PostingLine> lines = new ArrayList<>();
        int lineCount = 0;
        String sourceId = null;
        for (String account : where.accounts()) {
            int buckets = bucketCount(tenant, account, where.month(), meter);
            for (int b = 0; b < buckets; b++) {
                List<Map<String, AttributeValue>> items =
                        query(tenant, account, where, txnId, b, meter);
                for (Map<String, AttributeValue> i : items) {
                    lines.add(line(i));
                    lineCount = (int) Av.lng(i, LedgerSchema.LINE_COUNT, 0);
                    sourceId = Av.str(i, LedgerSchema.SOURCE_ID);
                }
                if (!items.isEmpty()) {
                    break;
                }
            }
        }
        lines.sort(Comparator.comparingInt(PostingLine::line));
        return new Found(List.copyOf(lines), lineCount, sourceId);
    }

    /** The reversal record of {@code txnId}, null when it was never reversed (strong). */
    public @Nullable Map<String, AttributeValue> reversal(
            String tenant, String txnId, CapacityMeter meter) {
        return ddb.ap("AP10")
                .getStrong(
                        tables.ledger(),
                        LedgerItemCodec.key(new ReversalKey(tenant, txnId)),
                        meter);
    }

    private int bucketCount(String tenant, String account, YearMonth month, CapacityMeter meter) {
        PostingSequence.Counter c =
                LedgerItemCodec.counterFrom(
                        ddb.getStrong(
                                tables.ledger(),
                                LedgerItemCodec.key(new MonthCounterKey(tenant, account, month)),
                                meter));
        return c.version() == 0 ? 0 : c.bucket() + 1;
    }

    private List<Map<String, AttributeValue>> query(
            String tenant,
            String account,
            Location where,
            String txnId,
            int bucket,
            CapacityMeter meter) {
        PostingKey first =
                new PostingKey(tenant, account, where.month(), bucket, where.at(), txnId, 0);
        String sk = first.sk();
        String prefix = sk.substring(0, sk.lastIndexOf('#') + 1);
        return ddb.queryAll(
                QueryRequest.builder()
                        .tableName(tables.ledger())
                        .keyConditionExpression("#pk = :pk AND begins_with(#sk, :p)")
                        .expressionAttributeNames(Map.of("#pk", Schema.PK, "#sk", Schema.SK))
                        .expressionAttributeValues(
                                Map.of(":pk", Av.s(first.pk()), ":p", Av.s(prefix)))
                        .consistentRead(true),
                meter);
    }

    private static PostingLine line(Map<String, AttributeValue> i) {
        return new PostingLine(
                (int) Av.lng(i, LedgerSchema.LINE, 0),
                Av.reqStr(i, LedgerSchema.ACCOUNT),
                new Asset(
                        AuthorityKey.Kind.valueOf(Av.reqStr(i, LedgerSchema.ASSET_TYPE)),
                        Av.reqStr(i, LedgerSchema.ASSET)),
                Av.dec(i, LedgerSchema.AMOUNT));
    }
}
