package io.streamledger.command.orders;

import io.streamledger.command.api.ApiException;
import io.streamledger.model.calendar.ExchangeCalendar;
import java.time.Instant;
import java.time.LocalDate;
import javax.annotation.Nullable;

/**
 * How long an order stays open (CS04), on its venue's calendar ({@code model} {@link
 * ExchangeCalendar}): GTC until it is filled or cancelled; DAY until the first session close after
 * its acceptance; GTD until the session close of its {@code expireDate}. After that no execution
 * can belong to it and its expiry releases the remaining reservation (AP12); the decision compares
 * the order's immutable {@code expiresAtMs} with the service clock inside the expiry's conditional
 * write, never a TTL.
 */
public enum TimeInForce {
    GTC,
    DAY,
    GTD;

    /**
     * When an order accepted at {@code acceptedAt} expires on {@code calendar}; GTC never. A GTD
     * date without a session is a 400 {@code NOT_A_TRADING_DAY}.
     */
    public @Nullable Instant expiresAt(
            Instant acceptedAt, ExchangeCalendar calendar, @Nullable LocalDate expireDate) {
        return switch (this) {
            case GTC -> null;
            case DAY -> calendar.nextCloseAfter(acceptedAt);
            case GTD ->
                    calendar.sessionClose(expireDate)
                            .orElseThrow(
                                    () ->
                                            ApiException.badRequest(
                                                    "NOT_A_TRADING_DAY",
                                                    "expireDate "
                                                            + expireDate
                                                            + " has no session on "
                                                            + calendar.venue()));
        };
    }
}
