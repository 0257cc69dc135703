package io.streamledger.operators.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AP09/AP13/CS07 end to end on a MiniCluster: a shuffled, duplicated stream through {@link
 * Gate#apply} comes out as exactly 1..n per key, with every duplicate and bad record accounted.
 */
class GateITCase {

    private static final int KEYS = 50;
    private static final int VERSIONS = 40;
    private static final int DUPLICATES = 300;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @Test
    void shuffledDuplicatedStreamIsAppliedExactlyOnceInVersionOrderPerKey() throws Exception {
        Random random = new Random(20261130L);
        List<GateEvent> events = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            for (int v = 1; v <= VERSIONS; v++) {
                events.add(
                        new GateEvent(
                                "ACCT#" + k,
                                v,
                                "fill-" + k + "-" + v,
                                1L,
                                2L,
                                "TradeExecuted",
                                "{}"));
            }
        }
        for (int i = 0; i < DUPLICATES; i++) {
            GateEvent original = events.get(random.nextInt(KEYS * VERSIONS));
            events.add(
                    new GateEvent(
                            original.getSourceKey(),
                            original.getVersion(),
                            original.getEventId(),
                            1L,
                            2L,
                            "TradeExecuted",
                            "{}"));
        }
        events.add(new GateEvent("ACCT#0", 0, "bad-version", 1L, 2L, "TradeExecuted", "{}"));
        events.add(new GateEvent("", 1, "bad-key", 1L, 2L, "TradeExecuted", "{}"));
        Collections.shuffle(events, random);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.getConfig().disableGenericTypes();
        GateStreams gate =
                Gate.apply(
                        env.fromData(events, GateState.GATE_EVENT),
                        GateConfig.of(Duration.ofHours(1), Duration.ofMinutes(10), 2 * VERSIONS));

        CloseableIterator<GateEvent> applied = gate.applied().collectAsync();
        CloseableIterator<GateEvent> stale = gate.stale().collectAsync();
        CloseableIterator<GateEvent> duplicates = gate.duplicates().collectAsync();
        CloseableIterator<GapNotice> notices = gate.gapNotices().collectAsync();
        CloseableIterator<GapBreak> breaks = gate.gapBreaks().collectAsync();
        CloseableIterator<DeadLetter> dead = gate.deadLetters().collectAsync();
        env.execute("gate-it");

        Map<String, List<Long>> perKey = new HashMap<>();
        applied.forEachRemaining(
                e ->
                        perKey.computeIfAbsent(e.getSourceKey(), x -> new ArrayList<>())
                                .add(e.getVersion()));
        List<Long> expected = new ArrayList<>();
        for (long v = 1; v <= VERSIONS; v++) {
            expected.add(v);
        }
        assertThat(perKey).hasSize(KEYS);
        perKey.forEach((key, versions) -> assertThat(versions).as(key).isEqualTo(expected));

        // every injected copy is accounted for as stale or duplicate, nothing else
        int staleCount = drain(stale).size();
        int duplicateCount = drain(duplicates).size();
        assertThat(staleCount + duplicateCount).isEqualTo(DUPLICATES);

        List<DeadLetter> deadLetters = drain(dead);
        assertThat(deadLetters)
                .extracting(d -> d.getEvent().getEventId())
                .containsExactlyInAnyOrder("bad-version", "bad-key");
        assertThat(deadLetters).allMatch(d -> d.getReason() == DeadLetterReason.INVALID_EVENT);
        assertThat(drain(breaks)).isEmpty();

        // every gap that opened has closed: no key is left parked
        Map<String, Integer> balance = new HashMap<>();
        for (GapNotice n : drain(notices)) {
            balance.merge(
                    n.getSourceKey(), n.getStatus() == GapStatus.OPENED ? 1 : -1, Integer::sum);
        }
        assertThat(balance).isNotEmpty();
        assertThat(balance.values()).allMatch(b -> b == 0);
    }

    private static <T> List<T> drain(CloseableIterator<T> it) throws Exception {
        List<T> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        it.close();
        return out;
    }
}
