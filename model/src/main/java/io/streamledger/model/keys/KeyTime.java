package io.streamledger.model.keys;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

/**
 * The {@code at} component of sort keys (IDX02–IDX06, IDX10, IDX15, IDX17, IDX19): fixed-width UTC
 * ISO-8601 with milliseconds, {@code 2026-11-30T10:00:00.000Z}, so that lexicographic order of the
 * key equals time order. Years are limited to 0001–9999 (four digits keep the width fixed);
 * sub-millisecond precision is truncated when a typed key is built (documented, so round-trips
 * compare millisecond instants).
 */
public final class KeyTime {
    /** Width of every formatted {@code at}. */
    public static final int WIDTH = 24;

    private static final Pattern SHAPE =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final Instant MIN = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999Z");

    private KeyTime() {}

    /** Truncates to milliseconds and checks the 0001–9999 range. */
    public static Instant normalise(String name, Instant at) {
        if (at == null) {
            throw new KeyFormatException(name, "is null");
        }
        Instant ms = at.truncatedTo(ChronoUnit.MILLIS);
        if (ms.isBefore(MIN) || ms.isAfter(MAX)) {
            throw new KeyFormatException(name, at + " is outside years 0001..9999");
        }
        return ms;
    }

    /**
     * The sort key of a due queue ({@code PREFIX#at#id}) above every entry at or before {@code at}:
     * {@code SK < bound} is "due by {@code at}" ({@code !} sorts below every id character).
     */
    public static String dueBound(KeyPattern sk, Instant at) {
        return sk.build(format(at.plusMillis(1)), "!");
    }

    /** {@code 2026-11-30T10:00:00.000Z}. */
    public static String format(Instant at) {
        return FORMAT.format(normalise("at", at));
    }

    /**
     * Parses the fixed-width form; anything else (offsets, missing millis, invalid dates) is
     * rejected.
     */
    public static Instant parse(String name, String text) {
        if (text == null || !SHAPE.matcher(text).matches()) {
            throw new KeyFormatException(
                    name,
                    "'"
                            + text
                            + "' is not fixed-width UTC ISO-8601 with millis"
                            + " (yyyy-MM-ddTHH:mm:ss.SSSZ)");
        }
        Instant at;
        try {
            at = Instant.parse(text);
        } catch (DateTimeException e) {
            throw new KeyFormatException(name, "'" + text + "' is not a valid instant");
        }
        if (!FORMAT.format(at).equals(text)) {
            throw new KeyFormatException(name, "'" + text + "' is not a canonical instant");
        }
        return at;
    }
}
