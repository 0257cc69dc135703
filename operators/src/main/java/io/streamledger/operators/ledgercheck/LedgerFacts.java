package io.streamledger.operators.ledgercheck;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * Maps a Ledger-table {@link ChangeRecord} to a {@link LedgerFact} (CS11): POST# postings (IDX10),
 * AUTH# authorities (IDX11) and the account-month counters; other items are skipped (empty). Names
 * and prefixes are {@link LedgerSchema}'s.
 *
 * @throws IllegalArgumentException from {@link #fromChange} for a ledger item that cannot be read
 *     (the source dead-letters it with the message)
 */
public final class LedgerFacts {

    private LedgerFacts() {}

    public static Optional<LedgerFact> fromChange(ChangeRecord change) {
        String pk = change.stringKey(Attr.PK);
        String sk = change.stringKey(Attr.SK);
        if (pk == null || sk == null) {
            return Optional.empty();
        }
        if (LedgerSchema.isPosting(sk)) {
            return Optional.of(posting(change, pk, sk));
        }
        if (LedgerSchema.isAuthority(sk)) {
            return Optional.of(authority(change, pk, sk));
        }
        if (LedgerSchema.isCounter(sk)) {
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
        f.assetType = str(img, LedgerSchema.ASSET_TYPE, true);
        f.asset = str(img, LedgerSchema.ASSET, true);
        f.amount = number(img, LedgerSchema.AMOUNT, true).toPlainString();
        BigDecimal count = number(img, LedgerSchema.LINE_COUNT, false);
        f.lineCount = count == null ? 0 : count.intValueExact();
        BigDecimal seq = number(img, LedgerSchema.SEQUENCE, false);
        f.sequence = seq == null ? -1 : seq.longValueExact();
        if (change.operation() == Operation.MODIFY && change.oldImage() != null) {
            BigDecimal old = number(change.oldImage(), LedgerSchema.AMOUNT, false);
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
                f.version = number(old, LedgerSchema.VERSION, true).longValueExact();
            }
            return f;
        }
        if (img == null) {
            throw new IllegalArgumentException(
                    "authority change " + change.eventId() + " has no new image (stream view?)");
        }
        f.version = number(img, LedgerSchema.VERSION, true).longValueExact();
        BigDecimal posted = number(img, LedgerSchema.POSTED, true);
        BigDecimal reserved = number(img, LedgerSchema.RESERVED, false);
        f.posted = posted.toPlainString();
        f.reserved = (reserved == null ? BigDecimal.ZERO : reserved).toPlainString();
        BigDecimal pending = number(img, LedgerSchema.PENDING, false);
        f.pending = (pending == null ? BigDecimal.ZERO : pending).toPlainString();
        BigDecimal available = number(img, LedgerSchema.AVAILABLE, false);
        f.available = available == null ? null : available.toPlainString();
        f.lastTxnId = str(img, LedgerSchema.LAST_TXN_ID, false);
        if (change.operation() == Operation.INSERT) {
            f.oldVersion = 0;
            f.oldPosted = "0";
        } else if (old != null) {
            f.oldVersion = number(old, LedgerSchema.VERSION, true).longValueExact();
            f.oldPosted = number(old, LedgerSchema.POSTED, true).toPlainString();
        }
        return f;
    }

    private static LedgerFact counter(ChangeRecord change, String pk, String sk) {
        LedgerFact f = base(change, FactKind.MONTH_COUNTER, pk, sk);
        f.month = sk.substring(LedgerSchema.COUNTER_SK_PREFIX.length());
        Map<String, AttributeValue> img = change.newImage();
        if (img == null) {
            return f;
        }
        f.tenant = str(img, LedgerSchema.TENANT, true);
        f.account = str(img, LedgerSchema.ACCOUNT, true);
        BigDecimal count = number(img, LedgerSchema.MONTH_COUNT, false);
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
