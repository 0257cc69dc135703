package io.streamledger.model.money;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Registry of ISO-4217 currencies with the maximum scale (minor-unit digits) an amount may carry
 * (CS10). The registry is explicit rather than {@code java.util.Currency} so that a JDK update
 * cannot silently change a ledger's scale; an unknown code is an error, never a default.
 *
 * @param code ISO-4217 alphabetic code, e.g. {@code USD}
 * @param maxScale maximum number of fractional digits, e.g. 2 for USD, 0 for JPY, 3 for BHD
 */
public record CurrencyPolicy(String code, int maxScale) {
    private static final Pattern CODE = Pattern.compile("[A-Z]{3}");
    private static final Map<String, CurrencyPolicy> REGISTRY = registry();

    public CurrencyPolicy {
        Objects.requireNonNull(code, "code");
        if (!CODE.matcher(code).matches()) {
            throw new AmountException(
                    AmountException.Reason.UNKNOWN_CURRENCY,
                    "'" + code + "' is not an ISO-4217 alphabetic code (three upper-case letters)");
        }
        if (maxScale < 0 || maxScale > 8) {
            throw new IllegalArgumentException("maxScale must be 0..8, got " + maxScale);
        }
    }

    /**
     * The policy of a registered currency.
     *
     * @throws AmountException UNKNOWN_CURRENCY for null, malformed or unregistered codes
     */
    public static CurrencyPolicy of(String code) {
        if (code == null) {
            throw new AmountException(AmountException.Reason.UNKNOWN_CURRENCY, "currency is null");
        }
        CurrencyPolicy policy = REGISTRY.get(code);
        if (policy == null) {
            throw new AmountException(
                    AmountException.Reason.UNKNOWN_CURRENCY,
                    "currency '"
                            + DecimalText.abbreviate(code)
                            + "' is not in the CurrencyPolicy registry (codes are upper-case"
                            + " ISO-4217, e.g. USD, EUR, JPY)");
        }
        return policy;
    }

    /** True when the code is registered. */
    public static boolean isKnown(String code) {
        return code != null && REGISTRY.containsKey(code);
    }

    /** Every registered policy, in registration order. */
    public static Map<String, CurrencyPolicy> all() {
        return REGISTRY;
    }

    private static Map<String, CurrencyPolicy> registry() {
        Map<String, CurrencyPolicy> m = new LinkedHashMap<>();
        // ISO-4217 minor units; zero-decimal and three-decimal currencies listed explicitly.
        for (String c :
                new String[] {
                    "USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD", "HKD", "SGD", "SEK", "NOK",
                    "DKK", "PLN", "CZK", "HUF", "CNY", "INR", "MXN", "BRL", "ZAR", "ILS", "TRY",
                    "THB", "MYR", "TWD", "PHP", "AED", "SAR", "QAR"
                }) {
            m.put(c, new CurrencyPolicy(c, 2));
        }
        for (String c : new String[] {"JPY", "KRW", "CLP", "ISK", "VND", "PYG", "UGX"}) {
            m.put(c, new CurrencyPolicy(c, 0));
        }
        for (String c : new String[] {"BHD", "KWD", "JOD", "OMR", "TND", "LYD", "IQD"}) {
            m.put(c, new CurrencyPolicy(c, 3));
        }
        return Collections.unmodifiableMap(m);
    }
}
