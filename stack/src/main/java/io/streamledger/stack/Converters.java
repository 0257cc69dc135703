package io.streamledger.stack;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/** Picocli converters for the launcher's human-friendly flag values ("60s", "2m", "50/s"). */
final class Converters {

    private Converters() {}

    /** "500ms", "15s", "2m", "1h" or ISO-8601 ("PT1M"). */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return parseDuration(value);
        }
    }

    /** Requests per second: "50", "50/s" or "3000/m". */
    static final class RateConverter implements CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return parseRate(value);
        }
    }

    static Duration parseDuration(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.startsWith("pt")) {
                return Duration.parse(v.toUpperCase(Locale.ROOT));
            }
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            long n = Long.parseLong(v.substring(0, v.length() - 1));
            switch (v.charAt(v.length() - 1)) {
                case 's':
                    return Duration.ofSeconds(n);
                case 'm':
                    return Duration.ofMinutes(n);
                case 'h':
                    return Duration.ofHours(n);
                default:
                    return Duration.ofSeconds(Long.parseLong(v));
            }
        } catch (RuntimeException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration (e.g. 500ms, 15s, 2m, 1h, PT1M)");
        }
    }

    static double parseRate(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        double per = 1;
        if (v.endsWith("/s")) {
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("/m")) {
            v = v.substring(0, v.length() - 2);
            per = 60;
        }
        try {
            double r = Double.parseDouble(v) / per;
            if (!(r > 0) || Double.isInfinite(r)) {
                throw new NumberFormatException();
            }
            return r;
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a positive rate (e.g. 50, 50/s, 3000/m)");
        }
    }
}
