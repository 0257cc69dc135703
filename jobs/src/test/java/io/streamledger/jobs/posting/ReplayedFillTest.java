package io.streamledger.jobs.posting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions.KinesisPayload;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.deadletter.ReplaySource;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.operators.posting.ReplayHorizon;
import io.streamledger.operators.posting.TradeFill;
import io.streamledger.operators.posting.TradeFills;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CS08 replay decoding of the posting job: which entries are fills, tagged with their entry, and
 * which join before the execution-order gate (CS07), and which are refused because their AP09
 * receipt may have expired.
 */
class ReplayedFillTest {

    /** When {@link TestRecords#tradeExecuted} and {@link #fill()} were admitted. */
    private static final Instant ADMITTED = Instant.parse("2026-11-30T10:00:00Z");

    private static final Duration RETENTION = Duration.ofDays(30);

    private static ReplaySource.Decoder<TradeFill> decoderAt(Instant now) {
        return PostingJob.replayDecoder(
                new ParseChanges<>(
                        "Context", KinesisPayload.OUTBOX_EVENT, new PostingJob.FillMapper()),
                TransportKind.KINESIS,
                RETENTION,
                Clock.fixed(now, ZoneOffset.UTC));
    }

    private static TradeFill fill() {
        TradeFill f = new TradeFill();
        f.setEventId("ev-1");
        f.setTenant("t1");
        f.setAccountId("ACC-1");
        f.setQuantity(new BigDecimal("3"));
        f.setPrice(new BigDecimal("10.50"));
        f.setAccountExecSeq(7);
        f.setAdmittedAtMillis(ADMITTED.toEpochMilli());
        return f;
    }

    private static DeadLetterView entry(DeadLetterReason reason, String payload, String encoding) {
        Instant at = Instant.parse("2026-12-01T10:00:00Z");
        return new DeadLetterView(
                "t1",
                "posting",
                "op",
                reason,
                "id1",
                "detail",
                payload,
                encoding,
                "event:ev-1",
                null,
                null,
                0,
                at,
                at,
                1,
                DeadLetterStatus.REPLAY_REQUESTED,
                2,
                List.of());
    }

    @Test
    void aRejectedOrQuarantinedFillComesBackTaggedAndItsJsonStaysTheFill() {
        String json = TradeFills.toJson(fill());
        TradeFill f = PostingJob.replayedFill(entry(DeadLetterReason.QUARANTINED, json, "json"));
        assertThat(f).isEqualTo(fill());
        assertThat(f.isReplay()).isTrue();
        assertThat(f.getReplayReason()).isEqualTo("QUARANTINED");
        assertThat(f.getReplayVersion()).isEqualTo(2);
        assertThat(f.getReplayOf())
                .isEqualTo(entry(DeadLetterReason.QUARANTINED, json, "json").key().ref());
        assertThat(TradeFills.toJson(f)).isEqualTo(json);
        assertThat(PostingJob.replayedFill(entry(DeadLetterReason.REJECTED_FILL, json, "json")))
                .extracting(TradeFill::getReplayReason)
                .isEqualTo("REJECTED_FILL");
    }

    @Test
    void entriesThatAreNoFillsAreNotReinjectable() {
        assertThatThrownBy(
                        () ->
                                PostingJob.replayedFill(
                                        entry(DeadLetterReason.UNPARSEABLE_RECORD, "x", "utf-8")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("UNPARSEABLE_RECORD");
        assertThatThrownBy(
                        () ->
                                PostingJob.replayedFill(
                                        entry(DeadLetterReason.QUARANTINED, "{", "json")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSourceEntryIsParsedAgainAndJoinsBeforeTheGateOneThatStillFailsNamesTheReason() {
        ReplaySource.Decoder<TradeFill> decoder = decoderAt(ADMITTED.plus(Duration.ofDays(1)));
        assertThatThrownBy(
                        () ->
                                decoder.decode(
                                        entry(DeadLetterReason.UNPARSEABLE_RECORD, "x", "utf-8")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("still " + ParseChanges.UNPARSEABLE + ":");
        String relayed = TestRecords.tradeExecuted("ev-7", "t1", "ACC-1", "BUY", "3", "10.50");
        DeadLetterView source = entry(DeadLetterReason.UNMAPPABLE_EVENT, relayed, "utf-8");
        TradeFill now = decoder.decode(source);
        assertThat(now.getEventId()).isEqualTo("ev-7");
        assertThat(now.getReplayOf()).isEqualTo(source.key().ref());
        assertThat(now.getReplayVersion()).isEqualTo(2);
        assertThat(PostingJob.joinsBeforeGate(now)).as("a source entry meets the gate").isTrue();
        String json = TradeFills.toJson(fill());
        TradeFill rejected = decoder.decode(entry(DeadLetterReason.REJECTED_FILL, json, "json"));
        assertThat(rejected).isEqualTo(fill());
        assertThat(PostingJob.joinsBeforeGate(rejected)).as("its sequence was consumed").isFalse();
        assertThat(PostingJob.joinsBeforeGate(fill())).as("not a replay").isFalse();
    }

    @Test
    void aFillWhoseReceiptMayHaveExpiredIsRefusedWhateverItsEntry() {
        Instant lastSafe = ADMITTED.plus(RETENTION).minus(ReplayHorizon.CLOCK_SKEW);
        String json = TradeFills.toJson(fill());
        String relayed = TestRecords.tradeExecuted("ev-7", "t1", "ACC-1", "BUY", "3", "10.50");
        ReplaySource.Decoder<TradeFill> before = decoderAt(lastSafe.minusSeconds(1));
        assertThat(before.decode(entry(DeadLetterReason.QUARANTINED, json, "json")))
                .isEqualTo(fill());
        assertThat(before.decode(entry(DeadLetterReason.UNMAPPABLE_EVENT, relayed, "utf-8")))
                .extracting(TradeFill::getEventId)
                .isEqualTo("ev-7");
        ReplaySource.Decoder<TradeFill> after = decoderAt(lastSafe);
        assertThatThrownBy(() -> after.decode(entry(DeadLetterReason.QUARANTINED, json, "json")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ev-1")
                .hasMessageContaining("could post it twice");
        assertThatThrownBy(
                        () ->
                                after.decode(
                                        entry(DeadLetterReason.UNMAPPABLE_EVENT, relayed, "utf-8")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ev-7");
    }
}
