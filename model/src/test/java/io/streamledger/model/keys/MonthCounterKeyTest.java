package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/** The AP10 account-month counter key in the account's IDX11 partition. */
class MonthCounterKeyTest {

    @Test
    void spellsAndParsesTheCounterKey() {
        MonthCounterKey k = new MonthCounterKey("t1", "acct-1", YearMonth.of(2026, 11));
        assertThat(k.pk()).isEqualTo("TEN#t1#ACCT#acct-1");
        assertThat(k.sk()).isEqualTo("SEQ#MONTH#2026-11");
        assertThat(MonthCounterKey.parse(k.pk(), k.sk())).isEqualTo(k);
        assertThat(MonthCounterKey.SK_PREFIX).isEqualTo("SEQ#MONTH#");
    }

    @Test
    void sharesThePartitionOfTheAccountsAuthorities() {
        MonthCounterKey k = new MonthCounterKey("t1", "acct-1", YearMonth.of(2026, 1));
        assertThat(k.pk()).isEqualTo(AuthorityKey.cash("t1", "acct-1", "USD").pk());
        assertThat(k.indexId()).isEqualTo("IDX11");
    }

    @Test
    void rejectsMalformedKeys() {
        assertThatThrownBy(() -> new MonthCounterKey("t#1", "a", YearMonth.of(2026, 1)))
                .isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> MonthCounterKey.parse("TEN#t#ACCT#a", "SEQ#MONTH#2026-13"))
                .isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> MonthCounterKey.parse("TEN#t#ACCT#a", "AUTH#CASH#USD"))
                .isInstanceOf(KeyFormatException.class);
    }
}
