package io.streamledger.model.keys;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * Formats and parses the non-text components of IDX keys: versions ({@code V#v}), shards, the
 * ledger month ({@code yyyy-mm}), bucket ({@code nn}), posting line and reconciliation date.
 */
public final class KeyFields {
    /** Highest bucket number {@code nn} can spell. */
    public static final int MAX_BUCKET = 99;

    /** Highest posting line; four zero-padded digits keep lines of one txn in order. */
    public static final int MAX_LINE = 9999;

    /** Highest shard number accepted in any shard key. */
    public static final int MAX_SHARD = 9999;

    private static final Pattern NATURAL = Pattern.compile("0|[1-9]\\d{0,8}");
    private static final Pattern MONTH = Pattern.compile("\\d{4}-\\d{2}");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final DateTimeFormatter MONTH_FORMAT = DateTimeFormatter.ofPattern("uuuu-MM");

    private KeyFields() {}

    /** A non-negative decimal without leading zeros, in {@code [min, max]}. */
    public static int parseNatural(String name, String text, int min, int max) {
        if (text == null || !NATURAL.matcher(text).matches()) {
            throw new KeyFormatException(
                    name, "'" + text + "' is not a decimal number without leading zeros");
        }
        return requireRange(name, Integer.parseInt(text), min, max);
    }

    public static int requireRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new KeyFormatException(name, value + " is outside " + min + ".." + max);
        }
        return value;
    }

    /** Namespace/consumer version {@code v}: 1 or more. */
    public static String version(int v) {
        return Integer.toString(requireRange("v", v, 1, Integer.MAX_VALUE));
    }

    public static String shard(String name, int shard) {
        return Integer.toString(requireRange(name, shard, 0, MAX_SHARD));
    }

    public static int parseShard(String name, String text) {
        return parseNatural(name, text, 0, MAX_SHARD);
    }

    /** {@code nn}: two digits, zero-padded. */
    public static String bucket(int bucket) {
        return String.format("%02d", requireRange("nn", bucket, 0, MAX_BUCKET));
    }

    public static int parseBucket(String text) {
        if (text == null || text.length() != 2 || !text.chars().allMatch(Character::isDigit)) {
            throw new KeyFormatException("nn", "'" + text + "' is not two digits 00..99");
        }
        return Integer.parseInt(text);
    }

    /** Posting line: four digits, zero-padded. */
    public static String line(int line) {
        return String.format("%04d", requireRange("line", line, 0, MAX_LINE));
    }

    public static int parseLine(String text) {
        if (text == null || text.length() != 4 || !text.chars().allMatch(Character::isDigit)) {
            throw new KeyFormatException("line", "'" + text + "' is not four digits 0000..9999");
        }
        return Integer.parseInt(text);
    }

    /** {@code yyyy-mm}, e.g. {@code 2026-11}. */
    public static String month(YearMonth month) {
        if (month == null || month.getYear() < 1 || month.getYear() > 9999) {
            throw new KeyFormatException("yyyy-mm", month + " is outside years 0001..9999");
        }
        return MONTH_FORMAT.format(month);
    }

    public static YearMonth parseMonth(String text) {
        if (text == null || !MONTH.matcher(text).matches()) {
            throw new KeyFormatException("yyyy-mm", "'" + text + "' is not yyyy-mm");
        }
        try {
            return YearMonth.parse(text, MONTH_FORMAT);
        } catch (DateTimeException e) {
            throw new KeyFormatException("yyyy-mm", "'" + text + "' is not a valid month");
        }
    }

    /** Reconciliation {@code date}: ISO {@code yyyy-MM-dd}. */
    public static String date(LocalDate date) {
        if (date == null || date.getYear() < 1 || date.getYear() > 9999) {
            throw new KeyFormatException("date", date + " is outside years 0001..9999");
        }
        return date.toString();
    }

    public static LocalDate parseDate(String text) {
        if (text == null || !DATE.matcher(text).matches()) {
            throw new KeyFormatException("date", "'" + text + "' is not yyyy-MM-dd");
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeException e) {
            throw new KeyFormatException("date", "'" + text + "' is not a valid date");
        }
    }
}
