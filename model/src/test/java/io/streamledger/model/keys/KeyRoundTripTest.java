package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.money.CurrencyPolicy;
import io.streamledger.model.shard.ShardMap;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** Property tests: build → parse → equal for every IDX01–IDX19 key with random components. */
class KeyRoundTripTest {
    private static final int CASES = 1_000;
    private static final String[] ALPHABET = {
        "a",
        "Z",
        "0",
        "9",
        "-",
        "_",
        ":",
        ".",
        "/",
        " ",
        "@",
        "ORDER",
        "TEN",
        "META",
        "\u00fc",
        "\u65e5",
        "\uD83D\uDE00",
        "%",
        "13",
        "V"
    };
    private static final List<String> CURRENCIES = new ArrayList<>(CurrencyPolicy.all().keySet());

    private final Random random = new Random(20261130L);

    private String component() {
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(12);
        for (int i = 0; i < n && sb.length() < 200; i++) {
            sb.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }

    private Instant at() {
        long min = Instant.parse("2000-01-01T00:00:00Z").toEpochMilli();
        return Instant.ofEpochMilli(min + Math.floorMod(random.nextLong(), 4_000_000_000_000L));
    }

    private int shard() {
        return random.nextInt(13);
    }

    private int version() {
        return 1 + random.nextInt(1000);
    }

    private <K extends ItemKey> void roundTrip(
            java.util.function.Supplier<K> gen, BiFunction<String, String, K> parse) {
        List<K> keys = new ArrayList<>(CASES);
        List<K> parsed = new ArrayList<>(CASES);
        List<String> strings = new ArrayList<>(CASES);
        List<String> reparsedStrings = new ArrayList<>(CASES);
        for (int i = 0; i < CASES; i++) {
            K key = gen.get();
            K back = parse.apply(key.pk(), key.sk());
            keys.add(key);
            parsed.add(back);
            strings.add(key.pk() + "\n" + key.sk());
            reparsedStrings.add(back.pk() + "\n" + back.sk());
        }
        // one assertion per property keeps 1000 cases fast
        assertThat(parsed).isEqualTo(keys);
        assertThat(reparsedStrings).isEqualTo(strings);
    }

    @Test
    void idx01() {
        roundTrip(() -> new OrderKey(component(), component()), OrderKey::parse);
    }

    @Test
    void idx02() {
        roundTrip(
                () -> new OrderByAccountKey(component(), component(), at(), component()),
                OrderByAccountKey::parse);
    }

    @Test
    void idx03() {
        roundTrip(
                () ->
                        new OrderByStatusKey(
                                component(), component(), component(), at(), component()),
                OrderByStatusKey::parse);
    }

    @Test
    void idx04() {
        roundTrip(() -> new TradeKey(component(), component(), at(), component()), TradeKey::parse);
    }

    @Test
    void idx05() {
        roundTrip(
                () -> new TradeByAccountKey(component(), component(), at(), component()),
                TradeByAccountKey::parse);
    }

    @Test
    void idx06() {
        roundTrip(
                () -> new TradeBySymbolKey(component(), component(), at(), component()),
                TradeBySymbolKey::parse);
    }

    @Test
    void idx07() {
        roundTrip(() -> new PositionKey(component(), component(), component()), PositionKey::parse);
    }

    @Test
    void idx08() {
        roundTrip(() -> new RequestKey(component(), component()), RequestKey::parse);
    }

    @Test
    void idx09() {
        roundTrip(
                () -> InboxKey.forEvent(component(), component(), ShardMap.INBOX), InboxKey::parse);
        roundTrip(
                () -> new InboxKey(component(), version(), shard(), component()), InboxKey::parse);
    }

    @Test
    void idx10() {
        roundTrip(
                () ->
                        new PostingKey(
                                component(),
                                component(),
                                YearMonth.of(1 + random.nextInt(9999), 1 + random.nextInt(12)),
                                random.nextInt(100),
                                at(),
                                component(),
                                random.nextInt(10_000)),
                PostingKey::parse);
    }

    @Test
    void idx11() {
        roundTrip(
                () ->
                        random.nextBoolean()
                                ? AuthorityKey.cash(
                                        component(),
                                        component(),
                                        CURRENCIES.get(random.nextInt(CURRENCIES.size())))
                                : AuthorityKey.security(component(), component(), component()),
                AuthorityKey::parse);
    }

    @Test
    void idx12() {
        roundTrip(
                () ->
                        CheckpointKey.forSource(
                                component(), component(), ShardMap.PROJECTION_CHECKPOINTS),
                CheckpointKey::parse);
    }

    @Test
    void idx13() {
        roundTrip(
                () ->
                        new ReconBatchKey(
                                component(),
                                LocalDate.ofEpochDay(random.nextInt(2_900_000)),
                                component()),
                ReconBatchKey::parse);
    }

    @Test
    void idx14() {
        roundTrip(
                () -> new ReconBreakKey(component(), component(), component()),
                ReconBreakKey::parse);
    }

    @Test
    void idx15() {
        roundTrip(
                () ->
                        new BreakDueKey(
                                component(), component(), shard(), at(), component(), component()),
                BreakDueKey::parse);
    }

    @Test
    void idx16() {
        roundTrip(() -> new OutboxKey(component()), OutboxKey::parse);
    }

    @Test
    void idx17() {
        roundTrip(
                () ->
                        OutboxReadyKey.forEvent(
                                component(), at(), component(), ShardMap.OUTBOX_READY),
                OutboxReadyKey::parse);
    }

    @Test
    void idx18() {
        roundTrip(() -> new ClientOrderKey(component(), component()), ClientOrderKey::parse);
    }

    @Test
    void idx19() {
        roundTrip(
                () -> new RepairDueKey(component(), shard(), at(), component()),
                RepairDueKey::parse);
    }

    @Test
    void projectionAlias() {
        roundTrip(() -> new ProjectionAliasKey(component()), ProjectionAliasKey::parse);
    }

    @Test
    void shardedKeysAreConsistentWithTheirMap() {
        for (int i = 0; i < CASES; i++) {
            InboxKey inbox = InboxKey.forEvent("posting", component(), ShardMap.INBOX);
            assertThat(inbox.shard()).isBetween(0, 12);
            assertThat(InboxKey.parse(inbox.pk(), inbox.sk()).isConsistentWith(ShardMap.INBOX))
                    .isTrue();
            CheckpointKey cp =
                    CheckpointKey.forSource(
                            "portfolio", component(), ShardMap.PROJECTION_CHECKPOINTS);
            assertThat(cp.shard()).isBetween(0, 6);
            assertThat(cp.isConsistentWith(ShardMap.PROJECTION_CHECKPOINTS)).isTrue();
        }
        InboxKey forged = new InboxKey("posting", 1, 99, "evt-0001");
        assertThat(forged.isConsistentWith(ShardMap.INBOX)).isFalse();
    }
}
