package io.streamledger.command.schedule;

import io.streamledger.command.idempotency.IdempotentExecutor;

/**
 * The existing conditional expiry of one order (CS04/CS11: EXPIRED, hold released and OrderExpired
 * event in one transaction under the AP08 key {@code EXPIRE:<orderId>}), as the scheduler calls it.
 */
@FunctionalInterface
public interface OrderExpirer {
    /** Expires the order, or replays the first expiry's response; 4xx as {@code ApiException}. */
    IdempotentExecutor.Outcome expire(String tenant, String orderId);
}
