package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code at} component: fixed-width UTC millis whose string order is time order. */
class KeyTimeTest {

    @Test
    void formatsFixedWidthWithMillis() {
        assertThat(KeyTime.format(Instant.parse("2026-11-30T10:00:00Z")))
                .isEqualTo("2026-11-30T10:00:00.000Z");
        assertThat(KeyTime.format(Instant.parse("0001-01-01T00:00:00Z")))
                .isEqualTo("0001-01-01T00:00:00.000Z")
                .hasSize(KeyTime.WIDTH);
        assertThat(KeyTime.format(Instant.parse("2026-11-30T10:00:00.123456789Z")))
                .isEqualTo("2026-11-30T10:00:00.123Z");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2026-11-30T10:00:00Z",
                "2026-11-30T10:00:00.00Z",
                "2026-11-30T10:00:00.000+01:00",
                "2026-02-30T10:00:00.000Z",
                "2026-11-30 10:00:00.000Z",
                "12026-11-30T10:00:00.000Z"
            })
    void rejectsNonCanonicalTimes(String text) {
        assertThatThrownBy(() -> KeyTime.parse("at", text))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("at"));
    }

    @Test
    void rejectsYearsBeyondFourDigits() {
        assertThatThrownBy(() -> KeyTime.format(Instant.parse("+10000-01-01T00:00:00Z")))
                .hasMessageContaining("0001..9999");
        assertThatThrownBy(() -> KeyTime.format(Instant.parse("-0001-01-01T00:00:00Z")))
                .isInstanceOf(KeyFormatException.class);
    }

    @Test
    void lexicographicOrderOfSortKeysEqualsTimeOrder() {
        Random random = new Random(7L);
        long min = Instant.parse("1970-01-01T00:00:00Z").toEpochMilli();
        long max = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
        List<Instant> times = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            times.add(Instant.ofEpochMilli(min + (long) (random.nextDouble() * (max - min))));
        }
        // plus neighbours that differ only in the last millisecond digit
        times.add(Instant.parse("2026-11-30T10:00:00.009Z"));
        times.add(Instant.parse("2026-11-30T10:00:00.010Z"));
        List<String> keys = new ArrayList<>();
        for (Instant t : times) {
            keys.add(new TradeKey("t", "o", t, "x").sk());
        }
        List<Instant> byTime = new ArrayList<>(times);
        byTime.sort(Comparator.naturalOrder());
        List<String> byString = new ArrayList<>(keys);
        byString.sort(Comparator.naturalOrder());
        List<Instant> parsedInStringOrder = new ArrayList<>();
        for (String sk : byString) {
            parsedInStringOrder.add(TradeKey.parse("TEN#t#ORDER#o", sk).at());
        }
        assertThat(parsedInStringOrder).isEqualTo(byTime);
    }
}
