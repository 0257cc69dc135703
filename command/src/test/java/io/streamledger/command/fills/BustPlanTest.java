package io.streamledger.command.fills;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.command.orders.OrderItems;
import io.streamledger.command.orders.OrderStatus;
import io.streamledger.model.ledger.LedgerSchema;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What a bust does to its order and reservation (CS04/CS11), decided without I/O. */
class BustPlanTest {

    private static final BigDecimal COST = new BigDecimal("187.50");

    private static Map<String, AttributeValue> order(String status, String filled) {
        Map<String, AttributeValue> o = new HashMap<>();
        o.put(OrderItems.A_ORDER_ID, AttributeValue.fromS("o-1"));
        o.put(OrderItems.A_STATUS, AttributeValue.fromS(status));
        o.put(OrderItems.A_QUANTITY, AttributeValue.fromN("2"));
        o.put(OrderItems.A_FILLED, AttributeValue.fromN(filled));
        o.put(
                OrderItems.A_REMAINING,
                AttributeValue.fromN(
                        new BigDecimal("2").subtract(new BigDecimal(filled)).toString()));
        o.put(OrderItems.A_VERSION, AttributeValue.fromN("4"));
        return o;
    }

    private static final Map<String, AttributeValue> TRADE =
            Map.of(
                    TradeItems.A_TRADE_ID, AttributeValue.fromS("o-1:f-1"),
                    TradeItems.A_QUANTITY, AttributeValue.fromN("1"));

    private static Map<String, AttributeValue> reservation(
            String state, String consumed, String released) {
        Map<String, AttributeValue> r = new HashMap<>();
        r.put(LedgerSchema.RESERVATION_STATE, AttributeValue.fromS(state));
        r.put(LedgerSchema.ACCOUNT, AttributeValue.fromS("A"));
        r.put(LedgerSchema.ASSET_TYPE, AttributeValue.fromS("CASH"));
        r.put(LedgerSchema.ASSET, AttributeValue.fromS("USD"));
        r.put(LedgerSchema.AMOUNT, AttributeValue.fromN("374.87"));
        r.put(LedgerSchema.CONSUMED, AttributeValue.fromN(consumed));
        r.put(LedgerSchema.RELEASED, AttributeValue.fromN(released));
        r.put(LedgerSchema.VERSION, AttributeValue.fromN("3"));
        return r;
    }

    @Test
    void anOpenOrderGetsBackOnHoldWhatTheFillConsumed() {
        var plan =
                BustService.BustPlan.of(
                        order("PARTIALLY_FILLED", "1"),
                        TRADE,
                        reservation("OPEN", "187.50", "0"),
                        t -> COST);
        assertThat(plan.status()).isEqualTo(OrderStatus.ACCEPTED);
        assertThat(plan.filled()).isZero();
        assertThat(plan.remaining()).isEqualByComparingTo("2");
        assertThat(plan.orderVersion()).isEqualTo(4);
        assertThat(plan.reheld()).isEqualByComparingTo("187.50");
        assertThat(plan.rehold().key().accountId()).isEqualTo("A");
        assertThat(plan.reopensReservation()).isTrue();
        assertThat(plan.reservationVersion()).isEqualTo(3);
    }

    @Test
    void aCompletedOrderReopensButWhatItsCompletionReleasedStaysReleased() {
        var plan =
                BustService.BustPlan.of(
                        order("FILLED", "2"),
                        TRADE,
                        reservation("CONSUMED", "374.80", "0.07"),
                        t -> COST);
        assertThat(plan.status()).isEqualTo(OrderStatus.PARTIALLY_FILLED);
        assertThat(plan.remaining()).isEqualByComparingTo("1");
        assertThat(plan.reheld()).isEqualByComparingTo("187.50");
        assertThat(plan.releasedAtCompletion()).isEqualByComparingTo("0.07");
        assertThat(plan.reservationStateAfter()).isEqualTo("OPEN");
    }

    @Test
    void nothingIsHeldAgainBeyondWhatWasConsumed() {
        var plan =
                BustService.BustPlan.of(
                        order("PARTIALLY_FILLED", "1"),
                        TRADE,
                        reservation("OPEN", "100.00", "0"),
                        t -> COST);
        assertThat(plan.reheld()).isEqualByComparingTo("100.00");
    }

    @Test
    void aCancelledOrderStaysClosedAndHoldsNothingAgain() {
        var plan =
                BustService.BustPlan.of(
                        order("CANCELLED", "1"),
                        TRADE,
                        reservation("RELEASED", "187.50", "187.37"),
                        t -> COST);
        assertThat(plan.status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(plan.rehold()).isNull();
        assertThat(plan.reopensReservation()).isFalse();
        assertThat(plan.filled()).isZero();
        assertThat(plan.reservationStateAfter()).isEqualTo("RELEASED");
    }

    @Test
    void anOrderWithoutAReservationChangesOnlyItsQuantities() {
        var plan = BustService.BustPlan.of(order("FILLED", "2"), TRADE, null, t -> COST);
        assertThat(plan.status()).isEqualTo(OrderStatus.PARTIALLY_FILLED);
        assertThat(plan.rehold()).isNull();
        assertThat(plan.reservationStateAfter()).isEqualTo("NONE");
    }
}
