package io.streamledger.sinks.versioned;

import static io.streamledger.sinks.versioned.Writes.position;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Coalescing within one flush (seed CS06/AP13: only the newest version per item can win). */
class WriteCoalescerTest {

    @Test
    void versionGuardKeepsTheHighestVersionPerItemInFirstSeenOrder() {
        List<VersionedWrite> batch =
                List.of(
                        position("a", "AAPL", 3),
                        position("b", "MSFT", 1),
                        position("a", "AAPL", 7),
                        position("a", "AAPL", 5),
                        position("b", "MSFT", 2));

        WriteCoalescer.Result r = WriteCoalescer.coalesce(batch, GuardStrategy.VERSION_GUARD);

        assertThat(r.writes()).containsExactly(position("a", "AAPL", 7), position("b", "MSFT", 2));
        assertThat(r.superseded()).isEqualTo(3);
    }

    @Test
    void duplicatesOfTheSameVersionCollapseToOne() {
        List<VersionedWrite> batch =
                List.of(
                        position("a", "AAPL", 4),
                        position("a", "AAPL", 4),
                        position("a", "AAPL", 4));

        WriteCoalescer.Result r = WriteCoalescer.coalesce(batch, GuardStrategy.VERSION_GUARD);

        assertThat(r.writes()).containsExactly(position("a", "AAPL", 4));
        assertThat(r.superseded()).isEqualTo(2);
    }

    @Test
    void sortKeyAndTableArePartOfTheItemIdentity() {
        VersionedWrite otherTable =
                VersionedWrite.of(
                        "Portfolio_v2",
                        position("a", "AAPL", 1).key(),
                        Map.of("quantity", AttributeValue.fromN("1")),
                        1);
        List<VersionedWrite> batch =
                List.of(position("a", "AAPL", 1), position("a", "MSFT", 1), otherTable);

        WriteCoalescer.Result r = WriteCoalescer.coalesce(batch, GuardStrategy.VERSION_GUARD);

        assertThat(r.writes()).hasSize(3);
        assertThat(r.superseded()).isZero();
    }

    @Test
    void keyMapOrderDoesNotSplitAnItem() {
        VersionedWrite one =
                VersionedWrite.of(
                        "T",
                        Map.of("PK", AttributeValue.fromS("p"), "SK", AttributeValue.fromS("s")),
                        Map.of(),
                        1);
        java.util.LinkedHashMap<String, AttributeValue> reversed = new java.util.LinkedHashMap<>();
        reversed.put("SK", AttributeValue.fromS("s"));
        reversed.put("PK", AttributeValue.fromS("p"));
        VersionedWrite two = VersionedWrite.of("T", reversed, Map.of(), 2);

        WriteCoalescer.Result r =
                WriteCoalescer.coalesce(List.of(one, two), GuardStrategy.VERSION_GUARD);

        assertThat(r.writes()).containsExactly(two);
    }

    @Test
    void createOnceKeepsTheFirstWriteLikeTheTableWould() {
        List<VersionedWrite> batch =
                List.of(position("a", "AAPL", 2), position("a", "AAPL", 9), position("c", "X", 1));

        WriteCoalescer.Result r = WriteCoalescer.coalesce(batch, GuardStrategy.CREATE_ONCE);

        assertThat(r.writes()).containsExactly(position("a", "AAPL", 2), position("c", "X", 1));
        assertThat(r.superseded()).isEqualTo(1);
    }

    @Test
    void emptyBatchStaysEmpty() {
        WriteCoalescer.Result r = WriteCoalescer.coalesce(List.of(), GuardStrategy.VERSION_GUARD);
        assertThat(r.writes()).isEmpty();
        assertThat(r.superseded()).isZero();
    }
}
