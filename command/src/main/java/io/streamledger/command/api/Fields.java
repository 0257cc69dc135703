package io.streamledger.command.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the fields of one JSON object strictly: every field is named in the error, missing and
 * unknown fields are 400, ids may not contain the key delimiter '#', decimals are exact (CS10).
 */
public final class Fields {

    /** Identifier alphabet: no '#', the key-grammar delimiter, and no whitespace. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    /** Plain decimal text: no exponent, no leading '+', no NaN/Infinity. */
    private static final Pattern DECIMAL = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?");

    private static final int MAX_PRECISION = 38;

    private final ObjectNode node;
    private final String path;
    private final Set<String> read = new LinkedHashSet<>();

    public Fields(ObjectNode node, String path) {
        this.node = node;
        this.path = path;
    }

    public static Fields of(ObjectNode node) {
        return new Fields(node, "");
    }

    private String name(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private JsonNode required(String field) {
        read.add(field);
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw ApiException.badRequest(
                    "MISSING_FIELD", "required field '" + name(field) + "' is missing");
        }
        return v;
    }

    private JsonNode optional(String field) {
        read.add(field);
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    public String text(String field) {
        JsonNode v = required(field);
        if (!v.isTextual()) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "field '" + name(field) + "' must be a string");
        }
        return v.textValue();
    }

    public String optionalText(String field, int maxLength) {
        JsonNode v = optional(field);
        if (v == null) {
            return null;
        }
        if (!v.isTextual() || v.textValue().length() > maxLength) {
            throw ApiException.badRequest(
                    "INVALID_FIELD",
                    "field '" + name(field) + "' must be a string of at most " + maxLength);
        }
        return v.textValue();
    }

    /** An optional non-negative integer (e.g. an expected version). */
    public Long optionalLong(String field) {
        JsonNode v = optional(field);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "field '" + name(field) + "' must be a non-negative integer");
        }
        return v.longValue();
    }

    /** An identifier that becomes part of a key: 1-64 of [A-Za-z0-9_.:-]; '#' is rejected. */
    public String id(String field) {
        return checkId(name(field), text(field));
    }

    public String optionalId(String field) {
        JsonNode v = optional(field);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "field '" + name(field) + "' must be a string");
        }
        return checkId(name(field), v.textValue());
    }

    public static String checkId(String what, String value) {
        if (value.indexOf('#') >= 0) {
            throw ApiException.badRequest(
                    "INVALID_ID", what + " must not contain '#', the key delimiter");
        }
        if (!ID.matcher(value).matches()) {
            throw ApiException.badRequest(
                    "INVALID_ID", what + " must be 1-64 characters of [A-Za-z0-9_.:-]");
        }
        return value;
    }

    /** An optional enum field; {@code absent} when the field is not given. */
    public <E extends Enum<E>> E optionalEnum(String field, Class<E> type, E absent) {
        return optional(field) == null ? absent : enumValue(field, type);
    }

    public <E extends Enum<E>> E enumValue(String field, Class<E> type) {
        String s = text(field);
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(s)) {
                return e;
            }
        }
        throw ApiException.badRequest(
                "INVALID_FIELD",
                "field '"
                        + name(field)
                        + "' must be one of "
                        + java.util.Arrays.toString(type.getEnumConstants())
                        + ", got '"
                        + s
                        + "'");
    }

    /**
     * An exact decimal given as a JSON string ("12.50") or a JSON number parsed as BigDecimal
     * (never through double). Exponents, NaN and more than 38 digits are rejected.
     */
    public BigDecimal decimal(String field) {
        return toDecimal(name(field), required(field));
    }

    public BigDecimal optionalDecimal(String field) {
        JsonNode v = optional(field);
        return v == null ? null : toDecimal(name(field), v);
    }

    private static BigDecimal toDecimal(String what, JsonNode v) {
        String text;
        if (v.isTextual()) {
            text = v.textValue();
        } else if (v.isNumber()) {
            // USE_BIG_DECIMAL_FOR_FLOATS keeps the literal's digits; integers are exact too.
            text = v.decimalValue().toPlainString();
        } else {
            throw ApiException.badRequest(
                    "INVALID_AMOUNT",
                    "field '" + what + "' must be a decimal string or a JSON number");
        }
        if (!DECIMAL.matcher(text).matches()) {
            throw ApiException.badRequest(
                    "INVALID_AMOUNT",
                    "field '"
                            + what
                            + "' must be a plain decimal like \"12.50\" (no exponent, sign"
                            + " '+', NaN or Infinity), got '"
                            + text
                            + "'");
        }
        BigDecimal d = new BigDecimal(text);
        if (d.precision() > MAX_PRECISION) {
            throw ApiException.badRequest(
                    "INVALID_AMOUNT",
                    "field '" + what + "' has more than " + MAX_PRECISION + " significant digits");
        }
        return d;
    }

    public Instant instant(String field) {
        String s = text(field);
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    "INVALID_FIELD",
                    "field '" + name(field) + "' must be an ISO-8601 UTC instant, got '" + s + "'");
        }
    }

    public List<Fields> objects(String field, int min, int max) {
        JsonNode v = required(field);
        if (!v.isArray() || v.size() < min || v.size() > max) {
            throw ApiException.badRequest(
                    "INVALID_FIELD",
                    "field '"
                            + name(field)
                            + "' must be an array of "
                            + min
                            + " to "
                            + max
                            + " objects");
        }
        List<Fields> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode e = v.get(i);
            if (!e.isObject()) {
                throw ApiException.badRequest(
                        "INVALID_FIELD", "'" + name(field) + "[" + i + "]' must be an object");
            }
            out.add(new Fields((ObjectNode) e, name(field) + "[" + i + "]"));
        }
        return out;
    }

    /** Fails on any field that was never read: unknown fields are rejected, not ignored. */
    public void rejectUnknown() {
        Iterator<String> it = node.fieldNames();
        while (it.hasNext()) {
            String f = it.next();
            if (!read.contains(f)) {
                throw ApiException.badRequest("UNKNOWN_FIELD", "unknown field '" + name(f) + "'");
            }
        }
    }
}
