package io.streamledger.command.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** AMP14 applied to the seed's planning sizes: 2*(2+1+2+1) + 3 = 15. */
class TransactionCapacityTest {

    @Test
    void acceptedOrderAtTheSeedsItemSizesIsFifteenUnits() {
        int order = (int) (1.2 * 1024);
        int idempotency = (int) (0.7 * 1024);
        int outbox = (int) (1.6 * 1024);
        int sentinel = (int) (0.2 * 1024);
        List<Integer> sizes = List.of(order, idempotency, outbox, sentinel);
        assertThat(TransactionCapacity.baseUnits(sizes)).isEqualTo(12);
        assertThat(TransactionCapacity.totalUnits(sizes, 3)).isEqualTo(15);
    }

    @Test
    void roundsEachItemSeparatelyAtKibBoundaries() {
        assertThat(TransactionCapacity.baseUnits(List.of(1024))).isEqualTo(2);
        assertThat(TransactionCapacity.baseUnits(List.of(1025))).isEqualTo(4);
        assertThat(TransactionCapacity.baseUnits(List.of(1, 1))).isEqualTo(4);
    }
}
