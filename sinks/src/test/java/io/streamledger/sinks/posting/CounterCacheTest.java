package io.streamledger.sinks.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.operators.posting.PostingSequence;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The posting job's remembered AP10 counters: a hint that is all-or-nothing and bounded. */
class CounterCacheTest {

    private static final YearMonth NOV = YearMonth.of(2026, 11);
    private static final PostingSequence.Counter C1 = new PostingSequence.Counter(3, 0, 3, 900, 3);
    private static final PostingSequence.Counter C2 = new PostingSequence.Counter(7, 0, 7, 2100, 7);

    @Test
    void returnsCountersOnlyWhenEveryAccountIsKnown() {
        CounterCache cache = new CounterCache(10);
        cache.putAll("t", NOV, Map.of("a", C1));
        assertThat(cache.getAll("t", NOV, List.of("a"))).containsExactly(Map.entry("a", C1));
        assertThat(cache.getAll("t", NOV, List.of("a", "b"))).isNull();
        cache.putAll("t", NOV, Map.of("b", C2));
        assertThat(cache.getAll("t", NOV, List.of("b", "a")))
                .containsExactly(Map.entry("b", C2), Map.entry("a", C1));
    }

    @Test
    void keysIncludeTenantAndMonth() {
        CounterCache cache = new CounterCache(10);
        cache.putAll("t", NOV, Map.of("a", C1));
        assertThat(cache.getAll("u", NOV, List.of("a"))).isNull();
        assertThat(cache.getAll("t", NOV.plusMonths(1), List.of("a"))).isNull();
    }

    @Test
    void removeAllForgetsAfterAFailedAttempt() {
        CounterCache cache = new CounterCache(10);
        cache.putAll("t", NOV, Map.of("a", C1, "b", C2));
        cache.removeAll("t", NOV, List.of("a"));
        assertThat(cache.getAll("t", NOV, List.of("a"))).isNull();
        assertThat(cache.getAll("t", NOV, List.of("b"))).isNotNull();
    }

    @Test
    void staysWithinItsBound() {
        CounterCache cache = new CounterCache(5);
        for (int i = 0; i < 50; i++) {
            cache.putAll("t", NOV, Map.of("a" + i, C1));
            assertThat(cache.size()).isLessThanOrEqualTo(5);
        }
        assertThat(cache.getAll("t", NOV, List.of("a49"))).isNotNull();
    }
}
