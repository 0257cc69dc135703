package io.streamledger.model.money;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** AP12 available policy: which accounts may go negative. */
class OverdraftExemptionsTest {

    @Test
    void houseSubAccountsAndSystemAccountsAreExemptByDefault() {
        List<String> d = OverdraftExemptions.DEFAULT_PREFIXES;
        assertThat(OverdraftExemptions.isExempt("HOUSE-CLEARING-17", d)).isTrue();
        assertThat(OverdraftExemptions.isExempt("HOUSE-FEES-BROKER-3", d)).isTrue();
        assertThat(OverdraftExemptions.isExempt("SYS-BANK", d)).isTrue();
    }

    @Test
    void clientAccountsAreNotEvenWhenTheyContainAPrefix() {
        List<String> d = OverdraftExemptions.DEFAULT_PREFIXES;
        assertThat(OverdraftExemptions.isExempt("acct-1", d)).isFalse();
        assertThat(OverdraftExemptions.isExempt("HOUSEHOLD-1", d)).isFalse(); // not "HOUSE-"
        assertThat(OverdraftExemptions.isExempt("client-SYS-1", d)).isFalse(); // prefix only
        assertThat(OverdraftExemptions.isExempt("HOUSE-1", List.of())).isFalse();
    }
}
