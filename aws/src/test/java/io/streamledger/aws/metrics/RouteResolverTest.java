package io.streamledger.aws.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.contract.ContractResources;
import org.junit.jupiter.api.Test;

/** Routes named by the seed's IDX ids through the MAP rows (AP→IDX) and the table specs. */
class RouteResolverTest {
    private final RouteResolver resolver = new RouteResolver(ContractResources.contract());

    @Test
    void baseTableRouteComesFromTheApsMapRow() {
        assertThat(resolver.route("AP01", "t1_Orders", null))
                .isEqualTo(new Route("AP01", "IDX01", "t1_Orders", Route.BASE));
        assertThat(resolver.route("AP17", "t1_Orders", null).route()).isEqualTo("IDX18");
        assertThat(resolver.route("AP12", "Ledger", null).route()).isEqualTo("IDX11");
    }

    @Test
    void indexRouteIsTheGsisIdxAndOtherTablesOfATransactionKeepTheirOwnId() {
        assertThat(resolver.route("AP02", "Orders", "GSI1").route()).isEqualTo("IDX02");
        assertThat(resolver.route("AP06", "x_Execution", "GSI2").route()).isEqualTo("IDX06");
        // AP10's transaction also writes the inbox receipt: the Inbox table has one path
        assertThat(resolver.route("AP10", "Inbox", null).route()).isEqualTo("IDX09");
    }

    @Test
    void ownRoutesAreTheApsMapRow() {
        assertThat(resolver.ownRoute(resolver.route("AP10", "Ledger", null))).isTrue();
        assertThat(resolver.ownRoute(resolver.route("AP10", "Inbox", null))).isFalse();
        assertThat(resolver.ownRoute(resolver.route("CS01", "Orders", null))).isFalse();
    }

    @Test
    void versionedAndUnknownTables() {
        assertThat(resolver.route("AP07", "p_Portfolio_v3", null).route()).isEqualTo("IDX07");
        assertThat(resolver.route("AP01", "Scratch", null).route()).isEqualTo("Scratch");
        assertThat(resolver.partitionKey("Orders", "GSI2")).contains("GSI2PK");
        assertThat(resolver.partitionKey("Orders", null)).contains("PK");
    }

    @Test
    void hotKeySketchesAreForLoadTestRequiredLanesOnly() {
        var aps = RouteResolver.loadTestRequiredAps(ContractResources.contract());
        assertThat(aps).contains("AP01", "AP10", "AP12", "AP16").doesNotContain("AP06", "AP13");
    }
}
