package io.streamledger.command.orders;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import javax.annotation.Nullable;

/**
 * How long an order stays open (CS04): GTC until it is filled or cancelled; DAY until the session
 * close that follows its acceptance. After that no execution can belong to it and its expiry
 * releases the remaining reservation (AP12); the decision compares the order's immutable {@code
 * expiresAtMs} with the service clock inside the expiry's conditional write, never a TTL.
 */
public enum TimeInForce {
    GTC,
    DAY;

    /** Session close of DAY orders in UTC (the US equity close, 16:00 New York standard time). */
    public static final LocalTime SESSION_CLOSE_UTC = LocalTime.of(21, 0);

    /** When an order accepted at {@code acceptedAt} expires: the next session close; GTC never. */
    public @Nullable Instant expiresAt(Instant acceptedAt) {
        if (this == GTC) {
            return null;
        }
        Instant close =
                acceptedAt
                        .atZone(ZoneOffset.UTC)
                        .toLocalDate()
                        .atTime(SESSION_CLOSE_UTC)
                        .toInstant(ZoneOffset.UTC);
        return acceptedAt.isBefore(close) ? close : close.plus(1, ChronoUnit.DAYS);
    }
}
