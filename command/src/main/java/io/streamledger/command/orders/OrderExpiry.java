package io.streamledger.command.orders;

import io.streamledger.command.api.ApiException;
import io.streamledger.model.calendar.ExchangeCalendars;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * The expiry an order is admitted with (CS04): its time in force on the calendar of the venue its
 * currency trades on. Admission stores it once on the order; the due-time queue and every later
 * decision read the stored value, so a calendar change never moves an admitted order.
 */
public final class OrderExpiry {

    private final ExchangeCalendars calendars;

    public OrderExpiry(ExchangeCalendars calendars) {
        this.calendars = calendars;
    }

    /**
     * When the order accepted at {@code acceptedAt} expires; null for GTC. A GTD order whose
     * session has already closed is refused (422 {@code EXPIRE_DATE_PASSED}), a GTD date without a
     * session too (400 {@code NOT_A_TRADING_DAY}): both before anything is written.
     */
    public @Nullable Instant at(PlaceOrderCommand c, Instant acceptedAt) {
        Instant at =
                c.timeInForce()
                        .expiresAt(acceptedAt, calendars.forCurrency(c.currency()), c.expireDate());
        if (at != null && !at.isAfter(acceptedAt)) {
            throw ApiException.unprocessable(
                    "EXPIRE_DATE_PASSED",
                    "the session of expireDate " + c.expireDate() + " closed at " + at);
        }
        return at;
    }
}
