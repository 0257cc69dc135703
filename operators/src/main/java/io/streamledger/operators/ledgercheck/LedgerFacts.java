package io.streamledger.operators.ledgercheck;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * Maps a Ledger-table {@link ChangeRecord} to a {@link LedgerFact} (CS11): POST# postings (IDX10),
 * AUTH# authorities (IDX11) and the account-month counters; other items are skipped (empty). The
 * attribute names are those the command service and the posting job write.
 *
 * @throws IllegalArgumentException from {@link #fromChange} for a ledger item that cannot be read
 *     (the source dead-letters it with the message)
 */
public final class LedgerFacts {

    public static final String POSTING_SK_PREFIX = "POST#";
    public static final String COUNTER_SK_PREFIX = MonthCounterKey.SK_PREFIX;

    // attribute names (command LedgerService / jobs LedgerItems)
    public static final String P_TXN = "txnId";
    public static final String P_LINE = "line";
    public static final String P_AMOUNT = "amount";
    public static final String P_ASSET_TYPE = "assetType";
    public static final String P_ASSET = "asset";
    public static final String P_SEQ = "sequence";

    /**
     * Lines of the whole transaction on every posting. Neither writer sets it yet; when absent the
     * balance check decides at the SLA instead of on the last line.
     */
    public static final String P_LINE_COUNT = "lineCount";

    public static final String A_POSTED = "posted";
    public static final String A_RESERVED = "reserved";
    public static final String A_AVAILABLE = "available";
    public static final String A_LAST_TXN = "lastTxnId";
    public static final String C_MONTH_COUNT = "monthCount";

    private LedgerFacts() {}

    public static Optional<LedgerFact> fromChange(ChangeRecord change) {
        String pk = change.stringKey(Attr.PK);
        String sk = change.stringKey(Attr.SK);
        if (pk == null || sk == null) {
            return Optional.empty();
        }
        if (sk.startsWith(POSTING_SK_PREFIX)) {
            return Optional.of(posting(change, pk, sk));
        }
        if (sk.startsWith(KeyPaths.IDX11_SK_CASH.literalPrefix())
                || sk.startsWith(KeyPaths.IDX11_SK_SEC.literalPrefix())) {
            return Optional.of(authority(change, pk, sk));
        }
        if (sk.startsWith(COUNTER_SK_PREFIX)) {
            return Optional.of(counter(change, pk, sk));
        }
        return Optional.empty();
    }

    private static LedgerFact base(ChangeRecord change, FactKind kind, String pk, String sk) {
        LedgerFact f = new LedgerFact();
        f.kind = kind;
        f.operation = change.operation();
        f.eventId = change.eventId();
        f.eventTimeMillis = change.approximateCreationDateTime().toEpochMilli();
        f.pk = pk;
        f.sk = sk;
        return f;
    }

    private static LedgerFact posting(ChangeRecord change, String pk, String sk) {
        PostingKey key = PostingKey.parse(pk, sk);
        LedgerFact f = base(change, FactKind.POSTING, pk, sk);
        f.tenant = key.tenant();
        f.account = key.account();
        f.txnId = key.txnId();
        f.line = key.line();
        f.month = key.month().toString();
        Map<String, AttributeValue> img =
                change.newImage() != null ? change.newImage() : change.oldImage();
        if (img == null) {
            if (change.operation() == Operation.INSERT) {
                throw new IllegalArgumentException(
                        "posting change " + change.eventId() + " has no image (stream view?)");
            }
            return f; // a MODIFY/REMOVE is a break whatever the images say
        }
        f.assetType = str(img, P_ASSET_TYPE, true);
        f.asset = str(img, P_ASSET, true);
        f.amount = number(img, P_AMOUNT, true).toPlainString();
        BigDecimal count = number(img, P_LINE_COUNT, false);
        f.lineCount = count == null ? 0 : count.intValueExact();
        BigDecimal seq = number(img, P_SEQ, false);
        f.sequence = seq == null ? -1 : seq.longValueExact();
        if (change.operation() == Operation.MODIFY && change.oldImage() != null) {
            BigDecimal old = number(change.oldImage(), P_AMOUNT, false);
            f.oldAmount = old == null ? null : old.toPlainString();
        }
        return f;
    }

    private static LedgerFact authority(ChangeRecord change, String pk, String sk) {
        AuthorityKey key = AuthorityKey.parse(pk, sk);
        LedgerFact f = base(change, FactKind.AUTHORITY, pk, sk);
        f.tenant = key.tenant();
        f.account = key.account();
        f.assetType = key.kind().name();
        f.asset = key.asset();
        Map<String, AttributeValue> img = change.newImage();
        Map<String, AttributeValue> old = change.oldImage();
        if (change.operation() == Operation.REMOVE) {
            if (old != null) {
                f.version = number(old, Attr.VERSION, true).longValueExact();
            }
            return f;
        }
        if (img == null) {
            throw new IllegalArgumentException(
                    "authority change " + change.eventId() + " has no new image (stream view?)");
        }
        f.version = number(img, Attr.VERSION, true).longValueExact();
        BigDecimal posted = number(img, A_POSTED, true);
        BigDecimal reserved = number(img, A_RESERVED, false);
        f.posted = posted.toPlainString();
        f.reserved = (reserved == null ? BigDecimal.ZERO : reserved).toPlainString();
        BigDecimal available = number(img, A_AVAILABLE, false);
        f.available = available == null ? null : available.toPlainString();
        f.lastTxnId = str(img, A_LAST_TXN, false);
        if (change.operation() == Operation.INSERT) {
            f.oldVersion = 0;
            f.oldPosted = "0";
        } else if (old != null) {
            f.oldVersion = number(old, Attr.VERSION, true).longValueExact();
            f.oldPosted = number(old, A_POSTED, true).toPlainString();
        }
        return f;
    }

    private static LedgerFact counter(ChangeRecord change, String pk, String sk) {
        LedgerFact f = base(change, FactKind.MONTH_COUNTER, pk, sk);
        f.month = sk.substring(COUNTER_SK_PREFIX.length());
        Map<String, AttributeValue> img = change.newImage();
        if (img == null) {
            return f;
        }
        f.tenant = str(img, "tenant", true);
        f.account = str(img, "accountId", true);
        BigDecimal count = number(img, C_MONTH_COUNT, false);
        f.monthCount = count == null ? -1 : count.longValueExact();
        return f;
    }

    private static @Nullable String str(
            Map<String, AttributeValue> img, String name, boolean required) {
        if (img.get(name) instanceof AttributeValue.S s) {
            return s.value();
        }
        if (required) {
            throw new IllegalArgumentException(
                    "ledger attribute '" + name + "' is missing or not a string: " + img.get(name));
        }
        return null;
    }

    private static @Nullable BigDecimal number(
            Map<String, AttributeValue> img, String name, boolean required) {
        if (img.get(name) instanceof AttributeValue.N n) {
            return n.bigDecimal();
        }
        if (required || img.containsKey(name)) {
            throw new IllegalArgumentException(
                    "ledger attribute '" + name + "' is missing or not a number: " + img.get(name));
        }
        return null;
    }
}
