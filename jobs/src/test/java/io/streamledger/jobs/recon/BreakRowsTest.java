package io.streamledger.jobs.recon;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.BreakDueKey;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.sinks.versioned.VersionedWrite;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A detected AP15 break as its create-once sink write (item shape: aws BreakItemsTest), gate gaps.
 */
class BreakRowsTest {

    private final BreakRows rows =
            new BreakRows("Reconciliation", "finance-ops", Duration.ofHours(24));

    @Test
    void newBreakIsOpenVersionOneWithDueQueueKeys() {
        long detected = Instant.parse("2026-11-30T10:00:00Z").toEpochMilli();
        VersionedWrite w =
                rows.newBreak(
                        new BreakRecord(
                                "t1",
                                "B1",
                                "X:1",
                                "TXN_UNBALANCED",
                                BreakRecord.Origin.LEDGER_CHECK,
                                detected,
                                "x",
                                "{}"));
        assertThat(w.key().get("PK").s()).isEqualTo("TEN#t1#RECON#B1");
        assertThat(w.key().get("SK").s()).isEqualTo("BREAK#X:1");
        assertThat(w.sourceVersion()).isEqualTo(1);
        BreakDueKey due =
                BreakDueKey.parse(
                        w.attributes().get("GSI1PK").s(), w.attributes().get("GSI1SK").s());
        assertThat(due.status()).isEqualTo("OPEN");
        assertThat(due.dueAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        assertThat(w.attributes().get("dueAt").s()).isEqualTo("2026-12-01T10:00:00.000Z");
        assertThat(w.attributes().get("owner").s()).isEqualTo("finance-ops");
        assertThat(w.attributes().get("origin").s()).isEqualTo("LEDGER_CHECK");
        assertThat(BreakRows.GUARD.strategy().name()).isEqualTo("CREATE_ONCE");
    }

    @Test
    void gateGapBreakBecomesAHashFreeIdInTheDailyGapBatch() {
        long since = Instant.parse("2026-11-30T23:59:00Z").toEpochMilli();
        GapBreak g = new GapBreak("t1/A1/SEC/ACME", 7, since, since + 60_000, 30_000, 2);
        BreakRecord b = GapBreaks.toBreak(g);
        assertThat(b.getTenant()).isEqualTo("t1");
        assertThat(b.getBreakId()).isEqualTo("GAP:t1/A1/SEC/ACME:V:7");
        assertThat(b.getBatchId()).isEqualTo("PROJECTION-GAP-2026-11-30");
        assertThat(b.getEvidence()).contains("\"gateBreakId\":\"GAP#t1/A1/SEC/ACME#V#7\"");
        // and it is storable
        assertThat(rows.newBreak(b).key().get("SK").s()).isEqualTo("BREAK#GAP:t1/A1/SEC/ACME:V:7");
    }
}
