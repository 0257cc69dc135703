package io.streamledger.stack.recon;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.command.config.ServiceConfig;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.operators.ledgercheck.LedgerCheckConfig;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * AP12: the command service's admission and the ledger-check job exempt the same accounts from the
 * negative-available rule by default, so a transaction the one admits is not a break for the other.
 */
class OverdraftPolicyAgreementTest {

    @Test
    void commandServiceLedgerCheckAndReconOptionsShareOneDefault() {
        Set<String> command = ServiceConfig.defaults("").overdraftExemptPrefixes();
        Duration m = Duration.ofMinutes(1);
        Set<String> check = Set.copyOf(LedgerCheckConfig.of(m, m, m).overdraftExemptPrefixes());
        Set<String> option =
                Set.copyOf(
                        Arrays.asList(
                                new Configuration().get(ReconOptions.OVERDRAFT_EXEMPT).split(",")));
        assertThat(command).isEqualTo(check).isEqualTo(option).contains("HOUSE-", "SYS-");
    }
}
