package io.streamledger.jobs.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GateEvent;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Every side-output record maps onto one dead-letter entry whose id is stable on replay (CS08). */
class DeadLettersTest {

    private static SourceDeadLetter source(String seq, String payload) {
        return SourceDeadLetter.of(
                new RawChange(
                        "KINESIS",
                        "arn:s",
                        "shard-1",
                        seq,
                        1L,
                        payload.getBytes(StandardCharsets.UTF_8)),
                ParseChanges.UNPARSEABLE,
                "not json",
                1_000L);
    }

    @Test
    void sourceDeadLettersAreKeyedByTheirPositionAndNamedReason() {
        var c = DeadLetters.fromSource("posting", "posting-parse-v1");
        DeadLetterEntry a = c.toEntry(source("7", "x"));
        DeadLetterEntry replay = c.toEntry(source("7", "x"));
        DeadLetterEntry other = c.toEntry(source("8", "x"));
        assertThat(a.reason()).isEqualTo(DeadLetterReason.UNPARSEABLE_RECORD);
        assertThat(a.tenant()).isEqualTo(DeadLetterKey.UNKNOWN_TENANT);
        assertThat(a.sourcePosition()).isEqualTo("arn:s/shard-1/7");
        assertThat(a.key()).isEqualTo(replay.key());
        assertThat(a.id()).isNotEqualTo(other.id());
        assertThat(a.key().pk()).isEqualTo("TEN#_unknown#DLQ#posting");
        assertThat(a.key().sk()).isEqualTo("DL#UNPARSEABLE_RECORD#" + a.id());
    }

    @Test
    void gateDeadLettersKeepTenantAggregateAndVersion() {
        GateEvent e = new GateEvent();
        e.setSourceKey("t1/acct-1/CASH/USD");
        e.setVersion(5);
        e.setEventId("Ledger#t1/acct-1/CASH/USD#V#5");
        DeadLetterEntry d =
                DeadLetters.fromGate("projection", "gate-next-version-v1")
                        .toEntry(
                                new DeadLetter(
                                        io.streamledger.operators.gate.DeadLetterReason
                                                .PARK_OVERFLOW,
                                        "64 parked",
                                        2_000L,
                                        e));
        assertThat(d.tenant()).isEqualTo("t1");
        assertThat(d.reason()).isEqualTo(DeadLetterReason.PARK_OVERFLOW);
        assertThat(d.aggregateKey()).isEqualTo("t1/acct-1/CASH/USD");
        assertThat(d.aggregateVersion()).isEqualTo(5);
        assertThat(d.payload()).contains("\"version\":5");
        assertThat(d.origin()).isEqualTo("event:Ledger#t1/acct-1/CASH/USD#V#5");
    }
}
