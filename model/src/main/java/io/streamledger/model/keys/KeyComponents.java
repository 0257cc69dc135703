package io.streamledger.model.keys;

/**
 * Validation of one key component (IDX01–IDX19): components are REJECTED, never escaped, when they
 * could break the {@code #}-separated grammar. A valid component is non-empty, at most {@value
 * #MAX_LENGTH} chars, contains no {@code #}, no ISO control character and no unpaired surrogate (so
 * it encodes to UTF-8 losslessly). Rejection keeps keys readable, makes parsing a plain split, and
 * keeps {@code begins_with} prefixes unambiguous; an escape scheme would make two spellings of one
 * key possible.
 */
public final class KeyComponents {
    /** Maximum length of one component, in UTF-16 chars. */
    public static final int MAX_LENGTH = 256;

    /** The separator of key segments. */
    public static final char SEPARATOR = '#';

    private KeyComponents() {}

    /**
     * Returns {@code value} when it is a valid component.
     *
     * @param name the seed placeholder, used in the error (e.g. {@code id})
     * @throws KeyFormatException naming the component
     */
    public static String require(String name, String value) {
        if (value == null) {
            throw new KeyFormatException(name, "is null");
        }
        if (value.isEmpty()) {
            throw new KeyFormatException(name, "is empty");
        }
        if (value.length() > MAX_LENGTH) {
            throw new KeyFormatException(
                    name, "is " + value.length() + " chars long; the limit is " + MAX_LENGTH);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == SEPARATOR) {
                throw new KeyFormatException(
                        name,
                        "'"
                                + shown(value)
                                + "' contains the separator '#' at index "
                                + i
                                + " (rejected, not escaped)");
            }
            if (Character.isISOControl(c)) {
                throw new KeyFormatException(
                        name, "contains control character U+" + hex(c) + " at index " + i);
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
                    throw new KeyFormatException(
                            name, "has an unpaired surrogate at index " + i + " (not valid UTF-8)");
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                throw new KeyFormatException(
                        name, "has an unpaired surrogate at index " + i + " (not valid UTF-8)");
            }
        }
        return value;
    }

    private static String hex(char c) {
        return String.format("%04X", (int) c);
    }

    static String shown(String value) {
        return value.length() <= 80 ? value : value.substring(0, 77) + "...";
    }
}
