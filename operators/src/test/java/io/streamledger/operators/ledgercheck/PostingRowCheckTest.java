package io.streamledger.operators.ledgercheck;

import static io.streamledger.operators.ledgercheck.Facts.posting;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.change.Operation;
import io.streamledger.operators.recon.BreakRecord;
import org.junit.jupiter.api.Test;

/** CS11 immutable postings and the AP10 monthly admission limit, one row at a time. */
class PostingRowCheckTest {

    private static final LedgerCheckConfig CONFIG = LedgerCheckConfig.defaults();

    @Test
    void insertedPostingWithinLimitIsFine() {
        assertThat(PostingRowCheck.check(posting("x", 1, 2, "A", "USD", "1"), CONFIG)).isNull();
    }

    @Test
    void modifiedPostingIsABreakWithBothAmounts() {
        LedgerFact f = posting("x", 1, 2, "A", "USD", "2.00");
        f.operation = Operation.MODIFY;
        f.oldAmount = "1.00";
        BreakRecord b = PostingRowCheck.check(f, CONFIG);
        assertThat(b.getReason()).isEqualTo("POSTING_MODIFIED");
        assertThat(b.getBreakId()).startsWith("POSTING_MODIFIED:t1:x:1:");
        assertThat(b.getEvidence())
                .contains("\"amountBefore\":\"1.00\"")
                .contains("\"amountAfter\":\"2.00\"");
        // a redelivery of the same change gives the same id
        assertThat(PostingRowCheck.check(f, CONFIG).getBreakId()).isEqualTo(b.getBreakId());
    }

    @Test
    void removedPostingIsABreak() {
        LedgerFact f = posting("x", 2, 2, "A", "USD", "2.00");
        f.operation = Operation.REMOVE;
        assertThat(PostingRowCheck.check(f, CONFIG).getReason()).isEqualTo("POSTING_REMOVED");
    }

    @Test
    void sequenceOrCounterBeyondTwoMillionIsOneMonthLimitBreak() {
        LedgerFact atLimit = posting("x", 1, 2, "A", "USD", "1");
        atLimit.sequence = 2_000_000;
        assertThat(PostingRowCheck.check(atLimit, CONFIG)).isNull();
        LedgerFact over = posting("y", 1, 2, "A", "USD", "1");
        over.sequence = 2_000_001;
        BreakRecord b = PostingRowCheck.check(over, CONFIG);
        assertThat(b.getReason()).isEqualTo("MONTH_LIMIT_EXCEEDED");
        assertThat(b.getBreakId()).isEqualTo("MONTH_LIMIT_EXCEEDED:t1:A:2025-11");
        assertThat(b.getBatchId()).isEqualTo("LEDGER-CHECK-2025-11-01");

        LedgerFact counter = new LedgerFact();
        counter.kind = FactKind.MONTH_COUNTER;
        counter.operation = Operation.MODIFY;
        counter.tenant = "t1";
        counter.account = "A";
        counter.month = "2025-11";
        counter.monthCount = 2_000_001;
        counter.eventTimeMillis = Facts.EVENT_TIME + 86_400_000L;
        BreakRecord c = PostingRowCheck.check(counter, CONFIG);
        assertThat(c.getBreakId()).isEqualTo(b.getBreakId());
        assertThat(c.getBatchId()).isEqualTo(b.getBatchId());
    }
}
