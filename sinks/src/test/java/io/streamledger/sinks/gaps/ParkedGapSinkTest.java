package io.streamledger.sinks.gaps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.deadletter.ParkedGapIds;
import io.streamledger.model.deadletter.ParkedGapStatus;
import io.streamledger.model.keys.ParkedGapKey;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.gate.ParkedGap;
import io.streamledger.operators.gate.ParkedGapChange;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** CS07: each gate transition maps to its one conditional record write; committables round-trip. */
class ParkedGapSinkTest {

    private static ParkedGap gap(ParkedGapChange change, String actor, String note) {
        return new ParkedGap(
                "t1/acct-1", change, 2, 10L, 20L, 2, new long[] {3, 4}, false, 30L, actor, note);
    }

    private static UpdateItemRequest request(ParkedGap g) {
        return ParkedGapSink.request("DeadLetter", "posting", "gate-uid", g);
    }

    @Test
    void committablesSurviveTheVersionedSerializer() throws IOException {
        ParkedGapSerializer s = new ParkedGapSerializer();
        for (ParkedGap g :
                new ParkedGap[] {
                    gap(ParkedGapChange.SKIPPED, "ops:a", "why"),
                    gap(ParkedGapChange.OPENED, null, null)
                }) {
            assertThat(s.deserialize(s.getVersion(), s.serialize(g))).isEqualTo(g);
        }
        assertThatThrownBy(() -> s.deserialize(99, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("99");
    }

    @Test
    void everyTransitionIsOneConditionalWriteOnTheGapsRecord() {
        ParkedGapKey key =
                new ParkedGapKey(
                        "t1", "posting", ParkedGapIds.of("posting", "gate-uid", "t1/acct-1", 2));
        for (ParkedGapChange c : ParkedGapChange.values()) {
            UpdateItemRequest r = request(gap(c, "ops:a", null));
            assertThat(r.key().get(Attr.PK).s()).as(c.name()).isEqualTo(key.pk());
            assertThat(r.key().get(Attr.SK).s()).as(c.name()).isEqualTo(key.sk());
            assertThat(r.conditionExpression()).as(c.name()).isNotBlank();
        }
        assertThat(request(gap(ParkedGapChange.OPENED, null, null)).updateExpression())
                .doesNotContain("REMOVE");
        UpdateItemRequest skipped = request(gap(ParkedGapChange.SKIPPED, "ops:a", null));
        assertThat(skipped.updateExpression()).contains("REMOVE");
        assertThat(skipped.expressionAttributeValues().values())
                .anySatisfy(v -> assertThat(v.s()).isEqualTo(ParkedGapStatus.SKIPPED.name()))
                .anySatisfy(v -> assertThat(v.s()).isEqualTo("ops:a"));
        // a skip that found its version applied settles the record as arrived
        assertThat(
                        request(gap(ParkedGapChange.SKIP_NOOP, "ops:a", "n"))
                                .expressionAttributeValues())
                .containsValue(
                        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                                ParkedGapStatus.ARRIVED.name()));
        assertThat(request(gap(ParkedGapChange.SKIP_REFUSED, "ops:a", "n")).conditionExpression())
                .isEqualTo("#st = :from");
    }

    private static ParkedGap parked(ParkedGapChange c, int count, long version, long at) {
        return new ParkedGap(
                "t1/acct-1", c, 2, 10L, 20L, count, new long[] {version}, false, at, null, null);
    }

    @Test
    void aGapsObservationsMergeIntoOneCommittablePerCheckpoint() {
        ParkedGapSink.Buffer b = new ParkedGapSink.Buffer();
        b.write(parked(ParkedGapChange.OPENED, 1, 3, 1L), null);
        b.write(parked(ParkedGapChange.PARKED, 2, 5, 2L), null);
        b.write(parked(ParkedGapChange.PARKED, 3, 4, 3L), null);
        b.write(gap(ParkedGapChange.ARRIVED, null, null), null);
        java.util.List<ParkedGap> first = new java.util.ArrayList<>(b.prepareCommit());
        assertThat(first)
                .extracting(ParkedGap::getChange)
                .containsExactly(ParkedGapChange.OPENED, ParkedGapChange.ARRIVED);
        assertThat(first.get(0).getParkedCount()).isEqualTo(3);
        assertThat(first.get(0).getParkedVersions()).containsExactly(3L, 4L, 5L);
        assertThat(first.get(0).getAtMillis()).isEqualTo(3L);

        b.write(parked(ParkedGapChange.PARKED, 4, 6, 4L), null);
        assertThat(b.prepareCommit())
                .singleElement()
                .satisfies(
                        g -> {
                            assertThat(g.getChange()).isEqualTo(ParkedGapChange.PARKED);
                            assertThat(g.getParkedVersions()).containsExactly(6L);
                        });
        assertThat(b.prepareCommit()).isEmpty();
    }

    @Test
    void aKeyWithoutTenantIsRefused() {
        ParkedGap g = gap(ParkedGapChange.OPENED, null, null);
        g.setSourceKey("no-tenant");
        assertThatThrownBy(() -> request(g)).isInstanceOf(IllegalArgumentException.class);
    }
}
