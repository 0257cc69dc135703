package io.streamledger.model.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.RoundingPolicy;
import org.junit.jupiter.api.Test;

/** The AP07 view-scope rule: which accounts a Portfolio namespace holds. */
class ViewScopeTest {

    private final HouseAccounts house = new HouseAccounts(64);

    @Test
    void allHoldsEveryAccount() {
        assertThat(ViewScope.ALL.includes("acct-1")).isTrue();
        assertThat(ViewScope.ALL.includes(house.clearing("acct-1"))).isTrue();
        assertThat(ViewScope.ALL.includes(house.feeIncome("BROKER", "acct-1"))).isTrue();
    }

    @Test
    void clientsLeavesOutEveryHouseSubAccountOfAFill() {
        for (String a : house.fillAccounts("acct-7", RoundingPolicy.DEFAULT)) {
            assertThat(ViewScope.CLIENTS.includes(a)).as(a).isEqualTo(a.equals("acct-7"));
        }
        assertThat(ViewScope.CLIENTS.includes(HouseAccounts.CLEARING)).isFalse();
        // a client whose id merely starts with "HOUSE" (no dash) stays in the view
        assertThat(ViewScope.CLIENTS.includes("HOUSEHOLD-1")).isTrue();
        // system funding accounts are not house contra accounts: they stay in the view
        assertThat(ViewScope.CLIENTS.includes("SYS-BANK")).isTrue();
    }

    @Test
    void defaultIsEveryAccountSoOldNamespacesKeepTheirMeaning() {
        assertThat(ViewScope.DEFAULT).isEqualTo(ViewScope.ALL);
        assertThat(ViewScope.parse(null)).isEqualTo(ViewScope.ALL);
        assertThat(ViewScope.parse(" ")).isEqualTo(ViewScope.ALL);
    }

    @Test
    void parsesItsLabelInAnyCaseAndRefusesOthers() {
        for (ViewScope s : ViewScope.values()) {
            assertThat(ViewScope.parse(s.label())).isEqualTo(s);
            assertThat(ViewScope.parse(s.name())).isEqualTo(s);
        }
        assertThat(ViewScope.CLIENTS.label()).isEqualTo("clients");
        assertThatThrownBy(() -> ViewScope.parse("house"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'all' or 'clients'");
    }
}
