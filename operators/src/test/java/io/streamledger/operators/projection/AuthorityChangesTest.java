package io.streamledger.operators.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.change.Transport;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.operators.gate.GateEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AP12 authority change records become gate events keyed by authority item, versioned (AP13). */
class AuthorityChangesTest {

    static ChangeRecord change(
            Operation op, String pk, String sk, Map<String, AttributeValue> img) {
        Map<String, AttributeValue> keys =
                Map.of("PK", AttributeValue.s(pk), "SK", AttributeValue.s(sk));
        return new ChangeRecord(
                "ev-1",
                op,
                "Ledger",
                keys,
                null,
                op == Operation.REMOVE ? null : img,
                "100",
                Instant.ofEpochSecond(1_764_496_800L),
                null,
                null,
                Transport.DYNAMODB_STREAMS);
    }

    static Map<String, AttributeValue> authority(long version, String posted, String reserved) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put("version", AttributeValue.n(version));
        m.put("posted", AttributeValue.n(posted));
        m.put("reserved", AttributeValue.n(reserved));
        m.put("updatedAt", AttributeValue.s("2026-11-30T10:00:00.123Z"));
        return m;
    }

    @Test
    void securityAuthorityBecomesAVersionedGateEvent() {
        AuthorityKey k = AuthorityKey.security("t1", "a1", "ACME");
        GateEvent e =
                AuthorityChanges.toGateEvent(
                                change(Operation.MODIFY, k.pk(), k.sk(), authority(7, "12.5", "2")))
                        .orElseThrow();
        assertThat(e.getSourceKey()).isEqualTo("t1/a1/SEC/ACME");
        assertThat(e.getVersion()).isEqualTo(7);
        assertThat(e.getEventId()).isEqualTo("Ledger#" + e.getSourceKey() + "#V#7");
        assertThat(e.getEventTimeMillis())
                .isEqualTo(Instant.parse("2026-11-30T10:00:00.123Z").toEpochMilli());
        AuthoritySnapshot s = AuthoritySnapshot.fromJson(e.getPayload());
        assertThat(s.available()).isEqualByComparingTo("10.5"); // posted - reserved when absent
        assertThat(s.assetType()).isEqualTo(AuthorityKey.Kind.SEC);
        assertThat(s.asset()).isEqualTo("ACME");
    }

    @Test
    void postingsAndCountersAreSkipped() {
        assertThat(
                        AuthorityChanges.toGateEvent(
                                change(
                                        Operation.INSERT,
                                        "TEN#t1#ACCT#a1#MONTH#2026-11#BKT#00",
                                        "POST#x#t-1#0001",
                                        authority(1, "1", "0"))))
                .isEmpty();
        assertThat(
                        AuthorityChanges.toGateEvent(
                                change(
                                        Operation.INSERT,
                                        "TEN#t1#ACCT#a1",
                                        "SEQ#MONTH#2026-11",
                                        authority(1, "1", "0"))))
                .isEmpty();
    }

    @Test
    void aDeletedAuthorityIsBadInputNotASkip() {
        AuthorityKey k = AuthorityKey.cash("t1", "a1", "USD");
        assertThatThrownBy(
                        () ->
                                AuthorityChanges.toGateEvent(
                                        change(Operation.REMOVE, k.pk(), k.sk(), null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never");
    }

    @Test
    void aMissingVersionIsBadInput() {
        AuthorityKey k = AuthorityKey.cash("t1", "a1", "USD");
        Map<String, AttributeValue> img = authority(1, "1", "0");
        img.remove("version");
        assertThatThrownBy(
                        () ->
                                AuthorityChanges.toGateEvent(
                                        change(Operation.MODIFY, k.pk(), k.sk(), img)))
                .hasMessageContaining("'version'");
    }

    @Test
    void aClientsScopedViewLeavesHouseAuthoritiesOutBeforeReadingTheirImage() {
        AuthorityKey client = AuthorityKey.cash("t1", "acct-1", "USD");
        AuthorityKey house = AuthorityKey.cash("t1", "HOUSE-CLEARING-3", "USD");
        var img = authority(2, "5", "0");
        assertThat(
                        AuthorityChanges.toGateEvent(
                                change(Operation.MODIFY, client.pk(), client.sk(), img),
                                ViewScope.CLIENTS))
                .isPresent();
        assertThat(
                        AuthorityChanges.toGateEvent(
                                change(Operation.MODIFY, house.pk(), house.sk(), img),
                                ViewScope.CLIENTS))
                .isEmpty();
        // decided from the key: a house change the view would refuse (no image) is not read
        assertThat(
                        AuthorityChanges.toGateEvent(
                                change(Operation.MODIFY, house.pk(), house.sk(), null),
                                ViewScope.CLIENTS))
                .isEmpty();
        // the unscoped mapper is the ALL scope: house authorities stay in the view
        assertThat(
                        AuthorityChanges.toGateEvent(
                                        change(Operation.MODIFY, house.pk(), house.sk(), img))
                                .orElseThrow()
                                .getSourceKey())
                .isEqualTo("t1/HOUSE-CLEARING-3/CASH/USD");
    }
}
