package io.streamledger.model.ledger;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.PostingKey;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One immutable IDX10 posting item (AP10, CS11) as every writer stores it, named by {@link
 * LedgerSchema}; tenant, account, txnId and line come from the key.
 *
 * @param key the posting key (its bucket is the allocated one, see {@link #placed})
 * @param sourceId source business id of the transaction
 * @param lineCount lines of the whole transaction
 * @param assetType CASH or SEC
 * @param asset currency or symbol
 * @param amount signed exact amount
 * @param sequence account-month sequence number (0 before allocation)
 * @param recordedAt when the writer recorded it
 * @param reversalOf txnId of the transaction this one reverses
 * @param description free text of an admitted transaction
 * @param fill what the posting job adds for a fill's line
 */
public record PostingRow(
        PostingKey key,
        String sourceId,
        int lineCount,
        AuthorityKey.Kind assetType,
        String asset,
        BigDecimal amount,
        long sequence,
        Instant recordedAt,
        @Nullable String reversalOf,
        @Nullable String description,
        @Nullable FillLine fill) {

    /**
     * The posting job's additions (CS10 evidence on consideration lines).
     *
     * @param effectiveAt business time of the fill
     * @param role why the line exists, e.g. CONSIDERATION or FEE_INCOME:BROKER
     * @param eventId the trade event the line posts
     * @param rounding the consideration's rounding evidence, on consideration lines only
     */
    public record FillLine(
            Instant effectiveAt, String role, String eventId, @Nullable Rounding rounding) {
        public FillLine {
            Objects.requireNonNull(effectiveAt, "effectiveAt");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(eventId, "eventId");
        }
    }

    /** Exact gross, what rounding left out, and the mode used. */
    public record Rounding(BigDecimal grossExact, BigDecimal residual, RoundingMode mode) {}

    public PostingRow {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(assetType, "assetType");
        Objects.requireNonNull(asset, "asset");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(recordedAt, "recordedAt");
    }

    /** The same row in its allocated bucket with its sequence number. */
    public PostingRow placed(int bucket, long seq) {
        PostingKey k =
                new PostingKey(
                        key.tenant(),
                        key.account(),
                        key.month(),
                        bucket,
                        key.at(),
                        key.txnId(),
                        key.line());
        return new PostingRow(
                k,
                sourceId,
                lineCount,
                assetType,
                asset,
                amount,
                seq,
                recordedAt,
                reversalOf,
                description,
                fill);
    }

    /** The AP12 authority this posting changes. */
    public AuthorityKey authority() {
        return new AuthorityKey(key.tenant(), key.account(), assetType, asset);
    }
}
