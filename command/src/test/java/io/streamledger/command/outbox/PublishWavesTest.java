package io.streamledger.command.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Per-aggregate publication order of AP16 events under partial broker failures (CS03, CS07). */
class PublishWavesTest {

    record Ev(String aggregate, int version) {
        @Override
        public String toString() {
            return aggregate + version;
        }
    }

    private static Ev ev(String aggregate, int version) {
        return new Ev(aggregate, version);
    }

    /** Drives every wave; events in {@code failing} fail; returns what was acked, in order. */
    private static List<Ev> drive(PublishWaves<Ev> waves, Set<String> failing, List<List<Ev>> log) {
        List<Ev> acked = new ArrayList<>();
        for (List<Ev> wave = waves.nextWave(); !wave.isEmpty(); wave = waves.nextWave()) {
            log.add(wave);
            for (Ev e : wave) {
                boolean ok = !failing.contains(e.toString());
                waves.outcome(e, ok);
                if (ok) {
                    acked.add(e);
                }
            }
        }
        return acked;
    }

    @Test
    void aWaveCarriesAtMostTheOldestUnpublishedEventOfEachAggregate() {
        PublishWaves<Ev> waves =
                new PublishWaves<>(
                        List.of(ev("A", 1), ev("B", 1), ev("A", 2), ev("A", 3), ev("C", 1)),
                        Ev::aggregate);
        List<List<Ev>> log = new ArrayList<>();
        List<Ev> acked = drive(waves, Set.of(), log);
        assertThat(log)
                .containsExactly(
                        List.of(ev("A", 1), ev("B", 1), ev("C", 1)),
                        List.of(ev("A", 2)),
                        List.of(ev("A", 3)));
        assertThat(acked).hasSize(5);
        assertThat(waves.blocked()).isEmpty();
    }

    @Test
    void aFailedEventHoldsBackEveryLaterEventOfItsAggregateOnly() {
        PublishWaves<Ev> waves =
                new PublishWaves<>(
                        List.of(
                                ev("A", 1),
                                ev("B", 1),
                                ev("A", 2),
                                ev("B", 2),
                                ev("A", 3),
                                ev("B", 3)),
                        Ev::aggregate);
        List<List<Ev>> log = new ArrayList<>();
        List<Ev> acked = drive(waves, Set.of("A2"), log);
        // only the failed record is retried later; A3 never goes out ahead of A2
        assertThat(acked).containsExactly(ev("A", 1), ev("B", 1), ev("B", 2), ev("B", 3));
        assertThat(log.stream().flatMap(List::stream)).doesNotContain(ev("A", 3));
        assertThat(waves.blocked()).containsExactly(List.of(ev("A", 2), ev("A", 3)));
    }

    @Test
    void onlyTheHeadOfTheLastWaveTakesAnOutcome() {
        PublishWaves<Ev> waves = new PublishWaves<>(List.of(ev("A", 1), ev("A", 2)), Ev::aggregate);
        assertThatThrownBy(() -> waves.outcome(ev("A", 2), true))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anEventAddedWhileItsAggregateIsInFlightWaitsForTheAck() {
        Ev a1 = ev("A", 1);
        Ev a2 = ev("A", 2);
        Ev b1 = ev("B", 1);
        Ev c1 = ev("C", 1);
        PublishWaves<Ev> waves = new PublishWaves<>(List.of(a1, b1), Ev::aggregate);
        assertThat(waves.nextWave()).containsExactly(a1, b1);
        waves.add(List.of(a2, c1));
        // A1 is still in flight: A2 must not go out beside it
        assertThat(waves.nextWave()).containsExactly(c1);
        assertThat(waves.nextWave()).isEmpty();
        waves.outcome(a1, true);
        assertThat(waves.nextWave()).containsExactly(a2);
        assertThat(waves.pending()).isEqualTo(3);
        waves.outcome(b1, true);
        waves.outcome(c1, true);
        waves.outcome(a2, true);
        assertThat(waves.pending()).isZero();
        assertThat(waves.nextWave()).isEmpty();
    }

    @Test
    void aCallStaysWithinItsRecordAndWeightLimits() {
        PublishWaves<Ev> waves =
                new PublishWaves<>(
                        List.of(ev("A", 1), ev("B", 1), ev("C", 1), ev("D", 1), ev("E", 1)),
                        Ev::aggregate);
        assertThat(waves.nextCall(2, Long.MAX_VALUE, e -> 1L))
                .containsExactly(ev("A", 1), ev("B", 1));
        assertThat(waves.nextCall(10, 25, e -> 10L)).containsExactly(ev("C", 1), ev("D", 1));
        // one head heavier than the limit still goes, alone
        assertThat(waves.nextCall(10, 5, e -> 10L)).containsExactly(ev("E", 1));
        assertThat(waves.sendable()).isZero();
    }

    @Test
    void aTakenBlockedChainLeavesTheWavesAndItsAggregateStaysBlocked() {
        Ev a1 = ev("A", 1);
        Ev a2 = ev("A", 2);
        Ev b1 = ev("B", 1);
        PublishWaves<Ev> waves = new PublishWaves<>(List.of(a1, a2, b1), Ev::aggregate);
        assertThat(waves.nextWave()).containsExactly(a1, b1);
        waves.outcome(a1, false);
        assertThat(waves.takeBlocked()).containsExactly(List.of(a1, a2));
        assertThat(waves.takeBlocked()).isEmpty();
        assertThat(waves.pending()).isEqualTo(1);
        assertThatThrownBy(() -> waves.add(List.of(ev("A", 3))))
                .isInstanceOf(IllegalStateException.class);
        waves.outcome(b1, true);
        assertThat(waves.pending()).isZero();
    }
}
