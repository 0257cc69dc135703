package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.shard.ShardMap;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/** Literal examples of every IDX01–IDX19 key string, and rejection of malformed keys. */
class KeyExamplesTest {
    private static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void everyPathWritesTheSeedSpelling() {
        assertThat(new OrderKey("t1", "o-1").pk()).isEqualTo("TEN#t1#ORDER#o-1");
        assertThat(new OrderKey("t1", "o-1").sk()).isEqualTo("META");
        assertThat(new OrderByAccountKey("t1", "a-9", AT, "o-1").sk())
                .isEqualTo("ORD#2026-11-30T10:00:00.000Z#o-1");
        assertThat(new OrderByAccountKey("t1", "a-9", AT, "o-1").pk()).isEqualTo("TEN#t1#ACCT#a-9");
        assertThat(new OrderByStatusKey("t1", "a-9", "OPEN", AT, "o-1").pk())
                .isEqualTo("TEN#t1#ACCT#a-9#STATUS#OPEN");
        assertThat(new TradeKey("t1", "o-1", AT, "f-1").sk())
                .isEqualTo("TRADE#2026-11-30T10:00:00.000Z#f-1");
        assertThat(new TradeBySymbolKey("t1", "AAPL", AT, "f-1").pk()).isEqualTo("TEN#t1#SYM#AAPL");
        assertThat(new PositionKey("t1", "a-9", "AAPL").sk()).isEqualTo("POS#AAPL");
        assertThat(new RequestKey("t1", "k-1").pk()).isEqualTo("TEN#t1#REQ#k-1");
        assertThat(new RequestKey("t1", "k-1").sk()).isEqualTo("REQUEST");
        assertThat(new InboxKey("posting", 1, 3, "evt-0001").pk())
                .isEqualTo("CONSUMER#posting#V#1#SHARD#3");
        assertThat(InboxKey.forEvent("posting", "evt-0001", ShardMap.INBOX).pk())
                .isEqualTo("CONSUMER#posting#V#1#SHARD#3");
        PostingKey posting = new PostingKey("t1", "a-9", YearMonth.of(2026, 11), 7, AT, "txn-1", 2);
        assertThat(posting.pk()).isEqualTo("TEN#t1#ACCT#a-9#MONTH#2026-11#BKT#07");
        assertThat(posting.sk()).isEqualTo("POST#2026-11-30T10:00:00.000Z#txn-1#0002");
        assertThat(AuthorityKey.cash("t1", "a-9", "USD").sk()).isEqualTo("AUTH#CASH#USD");
        assertThat(AuthorityKey.security("t1", "a-9", "AAPL").sk()).isEqualTo("AUTH#SEC#AAPL");
        assertThat(new CheckpointKey("portfolio", 1, 6, "acct-1").pk())
                .isEqualTo("PROJ#portfolio#V#1#SHARD#6");
        assertThat(new CheckpointKey("portfolio", 1, 6, "acct-1").sk()).isEqualTo("SOURCE#acct-1");
        assertThat(new ReconBatchKey("t1", LocalDate.of(2026, 11, 30), "b-1").pk())
                .isEqualTo("TEN#t1#RECON#2026-11-30");
        assertThat(new ReconBreakKey("t1", "b-1", "x-1").sk()).isEqualTo("BREAK#x-1");
        assertThat(new BreakDueKey("t1", "OPEN", 2, AT, "b-1", "x-1").pk())
                .isEqualTo("TEN#t1#BREAK#OPEN#2");
        assertThat(new BreakDueKey("t1", "OPEN", 2, AT, "b-1", "x-1").sk())
                .isEqualTo("DUE#2026-11-30T10:00:00.000Z#b-1#x-1");
        assertThat(new OutboxKey("evt-1").pk()).isEqualTo("OUTBOX#evt-1");
        assertThat(new OutboxKey("evt-1").sk()).isEqualTo("EVENT");
        assertThat(new OutboxReadyKey("orders", 12, AT, "evt-1").pk())
                .isEqualTo("SERVICE#orders#READY#12");
        assertThat(new ClientOrderKey("t1", "c-1").pk()).isEqualTo("TEN#t1#CLIENTORDER#c-1");
        assertThat(new ClientOrderKey("t1", "c-1").sk()).isEqualTo("UNIQUE");
        assertThat(new RepairDueKey("t1", 0, AT, "k-1").sk())
                .isEqualTo("DUE#2026-11-30T10:00:00.000Z#k-1");
        assertThat(ProjectionAliasKey.PORTFOLIO.pk()).isEqualTo("ALIAS#portfolio");
        assertThat(ProjectionAliasKey.PORTFOLIO.sk()).isEqualTo("ALIAS");
    }

    @Test
    void malformedKeysAreRejectedWithPreciseErrors() {
        assertThatThrownBy(() -> OrderKey.parse("TEN#t1#ORDER", "META"))
                .isInstanceOf(KeyFormatException.class)
                .hasMessageContaining("3 '#'-separated segments")
                .hasMessageContaining("TEN#t#ORDER#id has 4");
        assertThatThrownBy(() -> OrderKey.parse("TEN#t1#ORDR#o", "META"))
                .hasMessageContaining("'ORDR' at segment 2 where TEN#t#ORDER#id expects 'ORDER'");
        assertThatThrownBy(() -> OrderKey.parse("TEN#t1#ORDER#o", "META#x"))
                .isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> OrderKey.parse("TEN##ORDER#o", "META"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("t"));
        assertThatThrownBy(() -> OrderKey.parse(null, "META")).hasMessageContaining("key is null");
        assertThatThrownBy(() -> TradeKey.parse("TEN#t#ORDER#o", "TRADE#2026-11-30T10:00:00Z#f"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("at"));
        assertThatThrownBy(() -> InboxKey.parse("CONSUMER#c#V#01#SHARD#3", "EVENT#e"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("v"));
        assertThatThrownBy(() -> InboxKey.parse("CONSUMER#c#V#0#SHARD#3", "EVENT#e"))
                .hasMessageContaining("outside 1..");
        assertThatThrownBy(() -> InboxKey.parse("CONSUMER#c#V#1#SHARD#-3", "EVENT#e"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class,
                        e -> assertThat(e.component()).isEqualTo("h(eventId)%13"));
        assertThatThrownBy(
                        () ->
                                PostingKey.parse(
                                        "TEN#t#ACCT#a#MONTH#2026-13#BKT#07",
                                        "POST#2026-11-30T10:00:00.000Z#x#0001"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class,
                        e -> assertThat(e.component()).isEqualTo("yyyy-mm"));
        assertThatThrownBy(
                        () ->
                                PostingKey.parse(
                                        "TEN#t#ACCT#a#MONTH#2026-11#BKT#7",
                                        "POST#2026-11-30T10:00:00.000Z#x#0001"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("nn"));
        assertThatThrownBy(
                        () ->
                                PostingKey.parse(
                                        "TEN#t#ACCT#a#MONTH#2026-11#BKT#07",
                                        "POST#2026-11-30T10:00:00.000Z#x#1"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("line"));
        assertThatThrownBy(() -> AuthorityKey.parse("TEN#t#ACCT#a", "AUTH#FX#USD"))
                .hasMessageContaining("neither AUTH#CASH#currency or AUTH#SEC#symbol");
        assertThatThrownBy(() -> AuthorityKey.parse("TEN#t#ACCT#a", "AUTH#CASH#XYZ"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class,
                        e -> assertThat(e.component()).isEqualTo("currency"));
        assertThatThrownBy(() -> ReconBatchKey.parse("TEN#t#RECON#2026-02-30", "BATCH#b"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("date"));
        // IDX13 and IDX14 share the PK prefix; the SK literal tells them apart
        assertThatThrownBy(() -> ReconBatchKey.parse("TEN#t#RECON#2026-11-30", "BREAK#x"))
                .isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(
                        () ->
                                new PostingKey(
                                        "t",
                                        "a",
                                        YearMonth.of(2026, 1),
                                        100,
                                        Instant.EPOCH,
                                        "x",
                                        1))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("nn"));
    }

    @Test
    void subMillisecondTimesAreTruncatedWhenTheKeyIsBuilt() {
        TradeKey k = new TradeKey("t", "o", Instant.parse("2026-11-30T10:00:00.123999Z"), "f");
        assertThat(k.at()).isEqualTo(Instant.parse("2026-11-30T10:00:00.123Z"));
        assertThat(TradeKey.parse(k.pk(), k.sk())).isEqualTo(k);
    }
}
