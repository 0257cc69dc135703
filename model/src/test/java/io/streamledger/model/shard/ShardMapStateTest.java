package io.streamledger.model.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.keys.InboxKey;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The reshard state machine of a versioned shard map (AP09/AP13): routing, phases, item. */
class ShardMapStateTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Instant T = NOW.plusSeconds(60);

    private final ShardMapState stable = ShardMapState.initial(ShardMap.INBOX);
    private final ShardMapState dual = stable.start(17, T, NOW, Duration.ofSeconds(30));

    @Test
    void stableRoutesEverythingToTheSeedMap() {
        assertThat(stable.route(0L)).isEqualTo(ShardMap.INBOX);
        assertThat(stable.route(T)).isEqualTo(ShardMap.INBOX);
        assertThat(stable.alsoCheck(ShardMap.INBOX)).isNull();
        assertThat(stable.readMaps()).containsExactly(ShardMap.INBOX);
    }

    @Test
    void startRoutesByAdmissionTimeAgainstTheWatermark() {
        ShardMap v2 = ShardMap.INBOX.withShardCount(17);
        assertThat(dual.current()).isEqualTo(v2);
        assertThat(dual.route(T.minusMillis(1))).isEqualTo(ShardMap.INBOX);
        assertThat(dual.route(T)).isEqualTo(v2);
        assertThat(dual.route(0L))
                .as("unknown admission time = before any reshard")
                .isEqualTo(ShardMap.INBOX);
        assertThat(dual.alsoCheck(ShardMap.INBOX)).isEqualTo(v2);
        assertThat(dual.alsoCheck(v2)).isEqualTo(ShardMap.INBOX);
        assertThat(dual.readMaps()).containsExactly(v2, ShardMap.INBOX);
        assertThat(dual.version(1)).isEqualTo(ShardMap.INBOX);
        assertThatThrownBy(() -> dual.version(3)).hasMessageContaining("no shard-map version 3");
    }

    @Test
    void aRetryAfterTheChangeDerivesItsOriginalReceiptKey() {
        Instant admitted = T.minusSeconds(5);
        InboxKey first = InboxKey.forEvent("posting", "evt-0002", stable.route(admitted));
        InboxKey retry = InboxKey.forEvent("posting", "evt-0002", dual.route(admitted));
        InboxKey afterCutover =
                InboxKey.forEvent(
                        "posting",
                        "evt-0002",
                        dual.drained(T.plusSeconds(1), Duration.ofDays(7))
                                .cutOver()
                                .route(admitted));
        assertThat(retry).isEqualTo(first).isEqualTo(afterCutover);
    }

    @Test
    void startRefusesAWatermarkInsideTheLeadOrTheSameN() {
        assertThatThrownBy(() -> stable.start(17, NOW.plusSeconds(10), NOW, Duration.ofSeconds(30)))
                .hasMessageContaining("lead");
        assertThatThrownBy(() -> stable.start(13, T, NOW, Duration.ofSeconds(30)))
                .hasMessageContaining("already has 13");
        assertThatThrownBy(() -> dual.start(19, T, NOW, Duration.ZERO))
                .hasMessageContaining("is DUAL, not STABLE");
    }

    @Test
    void phasesRunInOrderAndRetireOnlyAfterTheHorizon() {
        assertThatThrownBy(() -> dual.drained(T.minusMillis(1), Duration.ofDays(1)))
                .hasMessageContaining("watermark");
        assertThatThrownBy(dual::cutOver).hasMessageContaining("not DRAINED");
        ShardMapState drained = dual.drained(T.plusSeconds(5), Duration.ofDays(1));
        assertThat(drained.alsoCheck(drained.current())).as("no dual check after drain").isNull();
        ShardMapState cut = drained.cutOver();
        assertThat(cut.route(T.minusSeconds(1))).as("old events keep v1").isEqualTo(ShardMap.INBOX);
        assertThatThrownBy(() -> cut.retire(T.plusSeconds(6))).hasMessageContaining("dedupe until");
        ShardMapState retired = cut.retire(T.plusSeconds(5).plus(Duration.ofDays(1)));
        assertThat(retired.phase()).isEqualTo(ShardMapState.Phase.STABLE);
        assertThat(retired.readMaps()).containsExactly(ShardMap.INBOX.withShardCount(17));
    }

    @Test
    void itemRoundTripsInEveryPhase() {
        ShardMapState drained = dual.drained(T.plusSeconds(5), Duration.ofDays(1)).withRevision(3);
        for (ShardMapState s :
                new ShardMapState[] {stable, dual.withRevision(1), drained, drained.cutOver()}) {
            assertThat(ShardMapState.fromAttributes(s.toAttributes())).isEqualTo(s);
        }
        assertThat(ShardMapState.pk("inbox")).isEqualTo("SHARDMAP#inbox");
    }
}
