package io.streamledger.local.streams;

import io.streamledger.local.spi.ApiException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Endpoint-wide monotonic sequence numbers, rendered as fixed-width 21-digit decimal strings like
 * AWS's so that string and numeric order agree (CS07: per-item order).
 */
public final class SequenceNumbers {
    static final int DIGITS = 21;
    private static final String LEAD = "1";

    private final AtomicLong next = new AtomicLong(1);

    /** The next number; strictly greater than every number handed out before. */
    public long next() {
        return next.getAndIncrement();
    }

    public static String format(long n) {
        return LEAD + String.format("%0" + (DIGITS - 1) + "d", n);
    }

    /** Parses a wire sequence number; anything not produced by {@link #format} is invalid. */
    public static long parse(String s) {
        if (s == null
                || s.length() != DIGITS
                || !s.startsWith(LEAD)
                || !s.chars().allMatch(Character::isDigit)) {
            throw ApiException.validation("Invalid SequenceNumber: " + s);
        }
        return Long.parseLong(s.substring(1));
    }
}
