package io.streamledger.jobs.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.config.Schema;
import io.streamledger.command.ledger.Authority;
import io.streamledger.command.ledger.LedgerService;
import io.streamledger.command.ledger.PostingBuckets;
import io.streamledger.operators.posting.PostingIds;
import io.streamledger.operators.posting.PostingSequence;
import io.streamledger.operators.projection.AuthorityChanges;
import io.streamledger.sinks.posting.LedgerItems;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/**
 * The posting job and the command service write one ledger (AP10/AP12): same posting and authority
 * attribute names, same counter item and bucket limits, same txnId formula. Fails when either side
 * drifts.
 */
class LedgerShapeContractTest {

    @Test
    void postingAttributesMatchTheCommandService() {
        assertThat(LedgerItems.P_TENANT).isEqualTo(LedgerService.P_TENANT);
        assertThat(LedgerItems.P_TXN).isEqualTo(LedgerService.P_TXN);
        assertThat(LedgerItems.P_SOURCE).isEqualTo(LedgerService.P_SOURCE);
        assertThat(LedgerItems.P_LINE).isEqualTo(LedgerService.P_LINE);
        // the ledger-check job decides a transaction's balance once lineCount lines arrived
        assertThat(LedgerItems.P_LINE_COUNT)
                .isEqualTo(LedgerService.P_LINE_COUNT)
                .isEqualTo(io.streamledger.operators.ledgercheck.LedgerFacts.P_LINE_COUNT);
        assertThat(LedgerItems.P_ACCOUNT).isEqualTo(LedgerService.P_ACCOUNT);
        assertThat(LedgerItems.P_ASSET_TYPE).isEqualTo(LedgerService.P_ASSET_TYPE);
        assertThat(LedgerItems.P_ASSET).isEqualTo(LedgerService.P_ASSET);
        assertThat(LedgerItems.P_AMOUNT).isEqualTo(LedgerService.P_AMOUNT);
        assertThat(LedgerItems.P_SEQ).isEqualTo(LedgerService.P_SEQ);
        assertThat(LedgerItems.P_RECORDED).isEqualTo(LedgerService.P_RECORDED);
        assertThat(LedgerItems.C_MONTH_COUNT).isEqualTo(LedgerService.C_MONTH_COUNT);
        assertThat(LedgerItems.C_BUCKET).isEqualTo(LedgerService.C_BUCKET);
        assertThat(LedgerItems.C_BUCKET_COUNT).isEqualTo(LedgerService.C_BUCKET_COUNT);
        assertThat(LedgerItems.C_BUCKET_BYTES).isEqualTo(LedgerService.C_BUCKET_BYTES);
    }

    @Test
    void authorityAttributesMatchTheCommandServiceAndTheProjection() {
        assertThat(LedgerItems.A_POSTED)
                .isEqualTo(Authority.A_POSTED)
                .isEqualTo(AuthorityChanges.A_POSTED);
        assertThat(LedgerItems.A_RESERVED)
                .isEqualTo(Authority.A_RESERVED)
                .isEqualTo(AuthorityChanges.A_RESERVED);
        assertThat(LedgerItems.A_AVAILABLE)
                .isEqualTo(Authority.A_AVAILABLE)
                .isEqualTo(AuthorityChanges.A_AVAILABLE);
        assertThat(Authority.A_VERSION).isEqualTo(AuthorityChanges.A_VERSION);
        assertThat(LedgerItems.A_LAST_TXN).isEqualTo(Authority.A_LAST_TXN);
        assertThat(LedgerItems.A_UPDATED).isEqualTo(Authority.A_UPDATED);
        assertThat(LedgerItems.P_ACCOUNT).isEqualTo(Authority.A_ACCOUNT);
        assertThat(LedgerItems.P_ASSET_TYPE).isEqualTo(Authority.A_ASSET_TYPE);
    }

    @Test
    void counterItemAndLimitsMatchTheCommandService() {
        YearMonth m = YearMonth.of(2026, 11);
        assertThat(LedgerItems.counterKey("t1", "a1", m).get("SK").s())
                .isEqualTo(Schema.ledgerCounterSk(m));
        assertThat(LedgerItems.counterKey("t1", "a1", m).get("PK").s())
                .isEqualTo(Schema.accountPk("t1", "a1"));
        assertThat(PostingSequence.MAX_POSTINGS_PER_BUCKET)
                .isEqualTo(PostingBuckets.MAX_POSTINGS_PER_BUCKET);
        assertThat(PostingSequence.MAX_BYTES_PER_BUCKET)
                .isEqualTo(PostingBuckets.MAX_BYTES_PER_BUCKET);
        assertThat(PostingSequence.MAX_POSTINGS_PER_MONTH)
                .isEqualTo(PostingBuckets.MAX_POSTINGS_PER_MONTH);
        assertThat(PostingSequence.MAX_BUCKET).isEqualTo(PostingBuckets.MAX_BUCKET);
    }

    @Test
    void txnIdFormulaMatchesTheCommandService() {
        assertThat(PostingIds.txnId("t1", "TRADE:tr-9"))
                .isEqualTo(DeterministicIds.txnId("t1", "TRADE:tr-9"));
    }
}
