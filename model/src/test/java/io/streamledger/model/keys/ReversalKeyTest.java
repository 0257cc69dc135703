package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.ledger.LedgerSchema;
import org.junit.jupiter.api.Test;

/** The durable reversal record of a ledger transaction, keyed by the original's txnId (AP10). */
class ReversalKeyTest {

    @Test
    void spellsAndParsesTheReversalKey() {
        String txn = LedgerIds.tradeTxnId("t1", "o-1:f-1");
        ReversalKey k = new ReversalKey("t1", txn);
        assertThat(k.pk()).isEqualTo("TEN#t1#TXN#" + txn);
        assertThat(k.sk()).isEqualTo("REVERSAL");
        assertThat(ReversalKey.parse(k.pk(), k.sk())).isEqualTo(k);
    }

    @Test
    void isNeitherAPostingNorAnAuthorityNorAReservation() {
        String sk = new ReversalKey("t1", "t-abc").sk();
        assertThat(LedgerSchema.isReversal(sk)).isTrue();
        assertThat(LedgerSchema.isPosting(sk)).isFalse();
        assertThat(LedgerSchema.isAuthority(sk)).isFalse();
        assertThat(LedgerSchema.isReservation(sk)).isFalse();
        assertThat(LedgerSchema.isCounter(sk)).isFalse();
    }

    @Test
    void rejectsMalformedKeys() {
        assertThatThrownBy(() -> new ReversalKey("t1", "t#1"))
                .isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> ReversalKey.parse("TEN#t1#TXN#t-1", "POST#x"))
                .isInstanceOf(KeyFormatException.class);
    }

    @Test
    void bustAndTradeSourceIdsRoundTrip() {
        assertThat(LedgerIds.tradeIdOf(LedgerIds.tradeSourceId("o-1:f-1"))).isEqualTo("o-1:f-1");
        assertThat(LedgerIds.isTradeSource("TRADE:o-1:f-1")).isTrue();
        assertThat(LedgerIds.isBustSource(LedgerIds.bustSourceId("o-1:f-1"))).isTrue();
        assertThat(LedgerIds.isTradeSource("dep-1")).isFalse();
    }
}
