package io.streamledger.model.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every table states its Global Tables mode and authority; AP08/AP09/AP12 never on MREC. */
class TablePolicyTest {

    @Test
    void everyTableHasOnePolicy() {
        assertThat(TablePolicy.all().stream().map(TablePolicy::table))
                .containsExactlyElementsOf(
                        Tables.all().stream().map(TableSpec::logicalName).toList());
        TablePolicy.all().forEach(p -> assertThat(p.why()).isNotBlank());
    }

    @Test
    void leasesReceiptsAndAuthoritiesCannotBeLastWriterWins() {
        List<String> forbidden =
                TablePolicy.all().stream()
                        .filter(TablePolicy::forbidsMrec)
                        .map(TablePolicy::table)
                        .toList();
        assertThat(forbidden).containsExactly("Idempotency", "Inbox", "Ledger");
        assertThat(TablePolicy.of("Idempotency").aps()).contains("AP08");
        assertThat(TablePolicy.of("Inbox").aps()).contains("AP09");
        assertThat(TablePolicy.of("Ledger").aps()).contains("AP12");
    }

    @Test
    void theAuthorityTablesAreLedgerOrdersIdempotencyAndInbox() {
        assertThat(
                        TablePolicy.all().stream()
                                .filter(TablePolicy::authority)
                                .map(TablePolicy::table))
                .containsExactlyInAnyOrder("Ledger", "Orders", "Idempotency", "Inbox");
    }
}
