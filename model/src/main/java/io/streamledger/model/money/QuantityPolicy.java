package io.streamledger.model.money;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Scale policy for instrument quantities (CS04, CS10): a default maximum scale (6: fractional
 * shares and most crypto lots) and explicit per-symbol overrides (e.g. whole-share only = 0).
 *
 * @param defaultMaxScale maximum fractional digits for symbols without an override
 * @param overrides symbol → maximum fractional digits
 */
public record QuantityPolicy(int defaultMaxScale, Map<String, Integer> overrides) {
    /** Symbols: upper-case letters/digits, then {@code . _ / -}; 1–32 chars; never {@code #}. */
    private static final Pattern SYMBOL = Pattern.compile("[A-Z0-9][A-Z0-9._/-]{0,31}");

    /** Default policy: every instrument may carry up to six fractional digits. */
    public static final QuantityPolicy DEFAULT = new QuantityPolicy(6, Map.of());

    public QuantityPolicy {
        if (defaultMaxScale < 0 || defaultMaxScale > 18) {
            throw new IllegalArgumentException("defaultMaxScale must be 0..18");
        }
        overrides = Map.copyOf(Objects.requireNonNull(overrides, "overrides"));
        overrides.forEach(
                (symbol, scale) -> {
                    requireSymbol(symbol);
                    if (scale < 0 || scale > 18) {
                        throw new IllegalArgumentException(
                                "override scale for " + symbol + " must be 0..18");
                    }
                });
    }

    /** This policy plus one override. */
    public QuantityPolicy withOverride(String symbol, int maxScale) {
        java.util.HashMap<String, Integer> copy = new java.util.HashMap<>(overrides);
        copy.put(symbol, maxScale);
        return new QuantityPolicy(defaultMaxScale, copy);
    }

    /** Maximum scale for a symbol. */
    public int maxScale(String symbol) {
        return overrides.getOrDefault(requireSymbol(symbol), defaultMaxScale);
    }

    /**
     * Validates an instrument symbol.
     *
     * @throws AmountException INVALID_SYMBOL
     */
    public static String requireSymbol(String symbol) {
        if (symbol == null || !SYMBOL.matcher(symbol).matches()) {
            throw new AmountException(
                    AmountException.Reason.INVALID_SYMBOL,
                    "instrument symbol '"
                            + (symbol == null ? "null" : DecimalText.abbreviate(symbol))
                            + "' must match [A-Z0-9][A-Z0-9._/-]{0,31}");
        }
        return symbol;
    }
}
