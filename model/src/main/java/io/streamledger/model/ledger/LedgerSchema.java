package io.streamledger.model.ledger;

import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.keys.ReversalKey;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;

/**
 * The Ledger table's item schema (AP10 postings IDX10, AP12 authorities IDX11, AP11 account-month
 * counters): every attribute name and sort-key prefix that the command service, the posting job,
 * the projection, the ledger check and reconciliation read or write.
 */
public final class LedgerSchema {

    // ---- on postings, authorities and counters ----
    public static final String TENANT = "tenant";
    public static final String ACCOUNT = "accountId";
    public static final String ASSET_TYPE = "assetType";
    public static final String ASSET = "asset";
    public static final String VERSION = Attr.VERSION;
    public static final String UPDATED_AT = "updatedAt";

    // ---- IDX10 posting (immutable) ----
    public static final String TXN_ID = "txnId";
    public static final String SOURCE_ID = "sourceId";
    public static final String LINE = "line";

    /**
     * Lines of the whole transaction, on every posting: the ledger check knows when all arrived.
     */
    public static final String LINE_COUNT = "lineCount";

    public static final String AMOUNT = "amount";
    public static final String SEQUENCE = "sequence";
    public static final String RECORDED_AT = "recordedAt";
    public static final String REVERSAL_OF = "reversalOf";
    public static final String DESCRIPTION = "description";

    /** Business time of a fill's posting (the posting job; keys the month). */
    public static final String EFFECTIVE_AT = "effectiveAt";

    /** Why a fill's line exists; its presence marks a posting of the posting job. */
    public static final String ROLE = "role";

    public static final String EVENT_ID = Attr.EVENT_ID;
    public static final String GROSS_EXACT = "grossExact";
    public static final String ROUNDING_RESIDUAL = "roundingResidual";
    public static final String ROUNDING_MODE = "roundingMode";

    // ---- IDX11 authority (AP12) ----
    public static final String POSTED = "posted";
    public static final String RESERVED = "reserved";
    public static final String AVAILABLE = "available";

    /**
     * Signed effect of admitted fills the posting job has not posted yet (bought quantity in, sold
     * quantity and spent cash out); available = posted + pending - reserved.
     */
    public static final String PENDING = "pending";

    /** Legacy map of open reservations on the authority; no longer written (see README). */
    public static final String RESERVATIONS = "reservations";

    public static final String LAST_TXN_ID = "lastTxnId";

    // ---- reservation (AP12, RES#orderId beside the authorities) ----
    public static final String ORDER_ID = "orderId";
    public static final String CONSUMED = "consumed";
    public static final String RELEASED = "released";
    public static final String RESERVATION_STATE = "state";
    public static final String CREATED_AT = "createdAt";

    // ---- reversal record (AP10, TXN#txn / REVERSAL; txnId and sourceId name the original) ----
    /** The txnId of the transaction that reversed the original. */
    public static final String REVERSED_BY = "reversedBy";

    public static final String REVERSAL_SOURCE_ID = "reversalSourceId";

    /** Why the reversal was written: REVERSAL (ledger route) or BUST (a busted fill). */
    public static final String REVERSAL_KIND = "kind";

    // ---- account-month counter (AP10/AP11) ----
    public static final String MONTH_COUNT = "monthCount";
    public static final String BUCKET = "bucket";
    public static final String BUCKET_COUNT = "bucketCount";
    public static final String BUCKET_BYTES = "bucketBytes";

    // ---- sort-key prefixes ----
    public static final String POSTING_SK_PREFIX = KeyPaths.IDX10_SK.literalPrefix();
    public static final String CASH_AUTHORITY_SK_PREFIX = KeyPaths.IDX11_SK_CASH.literalPrefix();
    public static final String SECURITY_AUTHORITY_SK_PREFIX = KeyPaths.IDX11_SK_SEC.literalPrefix();
    public static final String COUNTER_SK_PREFIX = MonthCounterKey.SK_PREFIX;
    public static final String RESERVATION_SK_PREFIX = ReservationKey.SK_PREFIX;
    public static final String REVERSAL_SK = ReversalKey.SK.build();

    /** Role prefix of the cash-consideration lines, which carry the rounding evidence (CS10). */
    public static final String CONSIDERATION_ROLE_PREFIX = "CONSIDERATION";

    private LedgerSchema() {}

    /** The AP12 availability rule: what admission may still spend or sell (CS11). */
    public static BigDecimal available(BigDecimal posted, BigDecimal pending, BigDecimal reserved) {
        return posted.add(pending).subtract(reserved);
    }

    public static boolean isPosting(String sk) {
        return sk.startsWith(POSTING_SK_PREFIX);
    }

    public static boolean isAuthority(String sk) {
        return isCashAuthority(sk) || isSecurityAuthority(sk);
    }

    public static boolean isCashAuthority(String sk) {
        return sk.startsWith(CASH_AUTHORITY_SK_PREFIX);
    }

    public static boolean isSecurityAuthority(String sk) {
        return sk.startsWith(SECURITY_AUTHORITY_SK_PREFIX);
    }

    public static boolean isReservation(String sk) {
        return sk.startsWith(RESERVATION_SK_PREFIX);
    }

    public static boolean isReversal(String sk) {
        return sk.equals(REVERSAL_SK);
    }

    public static boolean isCounter(String sk) {
        return sk.startsWith(COUNTER_SK_PREFIX);
    }

    /** The posting month of an instant: its UTC calendar month. */
    public static YearMonth month(Instant at) {
        return YearMonth.from(at.atZone(ZoneOffset.UTC));
    }
}
