package io.streamledger.operators.recon;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.projection.ViewScope;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.junit.jupiter.api.Test;

/**
 * The positions check (AP14 PROJECTION_LAG / POSITION_MISMATCH) compares the AP07 view with the
 * AP12 authority within the view's scope: a house sub-account a clients-only view does not hold is
 * not a lagging row.
 */
class ReconViewScopeTest {

    static final long T0 = Instant.parse("2026-11-30T09:00:00Z").toEpochMilli();
    static final ReconConfig ALL =
            ReconConfig.of(Duration.ofMinutes(1), Duration.ZERO, Duration.ofSeconds(30));

    /** One closing firing, long after the SLA, whose rows come from {@code rows}. */
    private static ReconFinish.Plan fire(ReconConfig config, Map<String, PositionView> rows) {
        List<ReconEvent> events =
                List.of(
                        ReconEvent.of(
                                "t1",
                                T0 + 1_000,
                                new AuthorityFact("C1", "ACME", 3, BigDecimal.TEN)),
                        ReconEvent.of(
                                "t1",
                                T0 + 2_000,
                                new AuthorityFact(
                                        "HOUSE-CLEARING-5", "ACME", 9, new BigDecimal("-10"))));
        ReconWindowResult r =
                ReconWindowFunction.fire(
                        "t1", new TimeWindow(T0, T0 + 60_000), events, true, T0 + 600_000, config);
        PositionView[] views = new PositionView[r.authorities.length];
        for (int i = 0; i < views.length; i++) {
            AuthorityFact a = r.authorities[i].authority();
            views[i] = rows.get(a.account());
        }
        r.attach(views);
        return ReconFinish.plan(r, config);
    }

    @Test
    void aViewOfEveryAccountMustHoldTheHouseRowsToo() {
        ReconFinish.Plan p = fire(ALL, Map.of("C1", new PositionView(3, BigDecimal.TEN)));
        assertThat(p.breaks())
                .extracting(BreakRecord::getReason)
                .containsExactly(ReconReason.PROJECTION_LAG.name());
        assertThat(p.batch().manifest).contains("\"positions.checked\":\"2\"");
    }

    @Test
    void aClientsOnlyViewIsComparedWithTheClientAuthoritiesOnly() {
        ReconConfig clients = ALL.withViewScope(ViewScope.CLIENTS);
        assertThat(clients.windowMillis()).isEqualTo(ALL.windowMillis());
        ReconFinish.Plan p = fire(clients, Map.of("C1", new PositionView(3, BigDecimal.TEN)));
        assertThat(p.breaks()).isEmpty();
        assertThat(p.batch().outcome).isEqualTo("CLEAN");
        assertThat(p.batch().manifest).contains("\"positions.checked\":\"1\"");
        // a client row that lags is still found
        ReconFinish.Plan lag = fire(clients, Map.of());
        assertThat(lag.breaks()).extracting(BreakRecord::getSubject).containsExactly("C1/ACME");
    }
}
