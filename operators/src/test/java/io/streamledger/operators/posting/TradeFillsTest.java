package io.streamledger.operators.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.OutboxEvent;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Only TradeExecuted envelopes carry a posting (AP16 → AP10); the rest are skipped. */
class TradeFillsTest {

    private static OutboxEvent event(String type) {
        return new OutboxEvent(
                "e-1",
                "Order",
                "o-1",
                3,
                type,
                1,
                Instant.parse("2026-12-01T10:00:00Z"),
                "trace",
                null,
                Map.of(
                        "tenant", new AttributeValue.S("t1"),
                        "tradeId", new AttributeValue.S("o-1:f-1")));
    }

    @Test
    void aTradeBustedEventHasNoPostingMeaningForThePostingJob() {
        // the command service posts the bust's reversing transaction itself
        assertThat(TradeFills.fromOutbox(event("TradeBusted"), 0)).isEmpty();
    }

    @Test
    void orderLifecycleEventsAreSkippedToo() {
        assertThat(TradeFills.fromOutbox(event("OrderAccepted"), 0)).isEmpty();
        assertThat(TradeFills.fromOutbox(event("OrderCancelled"), 0)).isEmpty();
    }
}
