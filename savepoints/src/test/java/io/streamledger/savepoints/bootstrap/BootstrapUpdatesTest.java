package io.streamledger.savepoints.bootstrap;

import static io.streamledger.savepoints.testing.ExportFixture.authority;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.projection.AuthorityChanges;
import io.streamledger.operators.projection.CheckpointState;
import io.streamledger.operators.projection.ProjectionState;
import io.streamledger.operators.projection.ProjectionUpdate;
import io.streamledger.savepoints.testing.ExportFixture;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** AP13: an exported authority becomes the same gate event, tracker state and rows as the job's. */
class BootstrapUpdatesTest {

    static ProjectionUpdate update(String key, long version) {
        return BootstrapUpdates.update(
                new GateEvent(key, version, "id", 0, 0, AuthorityChanges.KIND, "{}"));
    }

    @Test
    void exportedAuthorityMapsLikeAStreamRecord() {
        AuthorityKey k = AuthorityKey.cash("t1", "a1", "USD");
        GateEvent e =
                ExportedAuthorities.toGateEvent(
                                authority(k, 7, "10.50", "0.50"),
                                "Ledger",
                                Instant.ofEpochSecond(5))
                        .orElseThrow();
        assertThat(e.getSourceKey()).isEqualTo("t1/a1/CASH/USD");
        assertThat(e.getVersion()).isEqualTo(7);
        assertThat(e.getEventId()).isEqualTo("Ledger#t1/a1/CASH/USD#V#7");
        assertThat(e.getPayload())
                .contains("\"posted\":\"10.50\"")
                .contains("\"available\":\"10.00\"");
    }

    @Test
    void postingsAreSkippedAndBrokenAuthoritiesRejected() {
        assertThat(
                        ExportedAuthorities.toGateEvent(
                                ExportFixture.posting("t1", "a1", "1"), "Ledger", Instant.EPOCH))
                .isEmpty();
        var bad = authority(AuthorityKey.cash("t1", "a1", "USD"), 7, "1", "0");
        bad.remove("version");
        assertThatThrownBy(() -> ExportedAuthorities.toGateEvent(bad, "Ledger", Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'version'");
    }

    @Test
    void stateAndRowsCarryTheTrackersRevisionForTheExportedVersion() {
        GateEvent e = new GateEvent("k", 9, "id", 123, 0, AuthorityChanges.KIND, "{\"x\":1}");
        CheckpointState s = BootstrapUpdates.state(e);
        assertThat(s.getLastVersion()).isEqualTo(9);
        assertThat(s.getPayload()).isEqualTo("{\"x\":1}");
        assertThat(s.getGapMissingVersion()).isZero();
        ProjectionUpdate u = BootstrapUpdates.update(e);
        assertThat(u.getRevision()).isEqualTo(9L << ProjectionState.REVISION_BITS);
        assertThat(u.isGapOpen()).isFalse();
        assertThat(u.getParkedCount()).isZero();
    }
}
