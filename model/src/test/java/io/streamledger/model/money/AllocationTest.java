package io.streamledger.model.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** CS10: allocation with explicit rounding and a named residual line. */
class AllocationTest {

    @Test
    void residualLineTakesTheRoundingRemainder() {
        Money total = Money.parse("100.00", "USD");
        Allocation a =
                Allocation.allocate(
                        total,
                        List.of(
                                AllocationLine.of("a", "1"),
                                AllocationLine.of("b", "1"),
                                AllocationLine.of("c", "1")),
                        "c",
                        RoundingMode.HALF_EVEN);
        assertThat(a.lines().get("a").toDynamoNumber()).isEqualTo("33.33");
        assertThat(a.lines().get("b").toDynamoNumber()).isEqualTo("33.33");
        assertThat(a.lines().get("c").toDynamoNumber()).isEqualTo("33.34");
        assertThat(a.sum()).isEqualTo(total);
        assertThat(a.lines().keySet()).containsExactly("a", "b", "c");
        assertThat(a.residualLine()).isEqualTo("c");
    }

    @Test
    void roundingModeIsApplied() {
        Money total = Money.parse("10", "JPY");
        List<AllocationLine> lines =
                List.of(
                        AllocationLine.of("x", "1"),
                        AllocationLine.of("y", "1"),
                        AllocationLine.of("z", "1"),
                        AllocationLine.of("rest", "1"));
        Allocation down = Allocation.allocate(total, lines, "rest", RoundingMode.DOWN);
        assertThat(down.lines().get("x").toDynamoNumber()).isEqualTo("2");
        assertThat(down.lines().get("rest").toDynamoNumber()).isEqualTo("4");
        Allocation halfUp = Allocation.allocate(total, lines, "rest", RoundingMode.HALF_UP);
        assertThat(halfUp.lines().get("x").toDynamoNumber()).isEqualTo("3");
        assertThat(halfUp.lines().get("rest").toDynamoNumber()).isEqualTo("1");
    }

    @Test
    void overAllocationThatFlipsTheResidualSignIsRejected() {
        Money total = Money.parse("0.01", "USD");
        List<AllocationLine> lines =
                List.of(
                        AllocationLine.of("a", "1"),
                        AllocationLine.of("b", "1"),
                        AllocationLine.of("r", "1"));
        assertThatThrownBy(() -> Allocation.allocate(total, lines, "r", RoundingMode.UP))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> {
                            assertThat(e.reason())
                                    .isEqualTo(AmountException.Reason.INVALID_ALLOCATION);
                            assertThat(e.getMessage()).contains("residual line 'r'");
                        });
    }

    @Test
    void invalidRequestsAreRejected() {
        Money total = Money.parse("1", "USD");
        assertThatThrownBy(
                        () ->
                                Allocation.allocate(
                                        total,
                                        List.of(AllocationLine.of("a", "1")),
                                        "missing",
                                        RoundingMode.DOWN))
                .hasMessageContaining("residual line 'missing'");
        assertThatThrownBy(
                        () ->
                                Allocation.allocate(
                                        total,
                                        List.of(
                                                AllocationLine.of("a", "1"),
                                                AllocationLine.of("a", "2")),
                                        "a",
                                        RoundingMode.DOWN))
                .hasMessageContaining("duplicate");
        assertThatThrownBy(
                        () ->
                                Allocation.allocate(
                                        total,
                                        List.of(AllocationLine.of("a", "0")),
                                        "a",
                                        RoundingMode.DOWN))
                .hasMessageContaining("zero");
        assertThatThrownBy(() -> AllocationLine.of("a", "-1")).hasMessageContaining("non-negative");
        assertThatThrownBy(() -> Allocation.allocate(total, List.of(), "a", RoundingMode.DOWN))
                .isInstanceOf(AmountException.class);
        assertThatThrownBy(
                        () ->
                                Allocation.allocate(
                                        total, List.of(AllocationLine.of("a", "1")), "a", null))
                .hasMessageContaining("roundingMode");
    }

    @Test
    void linesAlwaysSumToTheTotalForRandomRequests() {
        Random random = new Random(42L);
        RoundingMode[] modes = {
            RoundingMode.DOWN, RoundingMode.HALF_EVEN, RoundingMode.HALF_UP, RoundingMode.FLOOR
        };
        String[] currencies = {"USD", "JPY", "BHD"};
        for (int i = 0; i < 2_000; i++) {
            String ccy = currencies[random.nextInt(3)];
            Money total =
                    Money.of(
                            BigDecimal.valueOf(
                                    random.nextInt(10_000_000), CurrencyPolicy.of(ccy).maxScale()),
                            ccy);
            int n = 1 + random.nextInt(12);
            List<AllocationLine> lines = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                lines.add(
                        new AllocationLine(
                                "line" + j, BigDecimal.valueOf(1 + random.nextInt(1000), 2)));
            }
            Allocation a =
                    Allocation.allocate(
                            total,
                            lines,
                            "line" + random.nextInt(n),
                            modes[random.nextInt(modes.length)]);
            assertThat(a.sum()).isEqualTo(total);
            a.lines().values().forEach(m -> assertThat(m.signum()).isNotNegative());
        }
    }
}
