package io.streamledger.model.keys;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One PK or SK pattern in the seed's notation (IDX01–IDX19), e.g. {@code TEN#t#ORDER#id}: tokens
 * that are all upper-case letters are literals ({@code TEN}, {@code ORDER}), every other token is a
 * placeholder ({@code t}, {@code id}, {@code yyyy-mm}, {@code h(eventId)%13}). Builds and matches
 * key strings; the pattern text is the seed's, so code and contract share one spelling.
 */
public final class KeyPattern {
    private final String pattern;
    private final List<String> tokens;
    private final boolean[] literal;
    private final List<String> placeholders;

    private KeyPattern(String pattern) {
        this.pattern = Objects.requireNonNull(pattern, "pattern");
        this.tokens = List.of(pattern.split("#", -1));
        this.literal = new boolean[tokens.size()];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            String t = tokens.get(i);
            if (t.isEmpty()) {
                throw new IllegalArgumentException("empty token in pattern " + pattern);
            }
            literal[i] = isLiteral(t);
            if (!literal[i]) {
                names.add(t);
            }
        }
        this.placeholders = List.copyOf(names);
    }

    public static KeyPattern of(String pattern) {
        return new KeyPattern(pattern);
    }

    /** True for an all-upper-case-letters token, i.e. a literal of the grammar. */
    public static boolean isLiteral(String token) {
        return !token.isEmpty() && token.chars().allMatch(c -> c >= 'A' && c <= 'Z');
    }

    /** The seed spelling, e.g. {@code TEN#t#ORDER#id}. */
    public String pattern() {
        return pattern;
    }

    /** All tokens, literals and placeholders, in order. */
    public List<String> tokens() {
        return tokens;
    }

    /** Placeholder names in order, e.g. {@code [t, id]}. */
    public List<String> placeholders() {
        return placeholders;
    }

    /** The literal prefix up to the first placeholder, e.g. {@code "TEN#"}. */
    public String literalPrefix() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tokens.size() && literal[i]; i++) {
            sb.append(tokens.get(i)).append('#');
        }
        return sb.toString();
    }

    /**
     * Builds a key from one value per placeholder, in order; each value is validated by {@link
     * KeyComponents#require}.
     */
    public String build(String... values) {
        if (values.length != placeholders.size()) {
            throw new IllegalArgumentException(
                    pattern
                            + " takes "
                            + placeholders.size()
                            + " components, got "
                            + values.length);
        }
        StringBuilder sb = new StringBuilder(64);
        int v = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (i > 0) {
                sb.append('#');
            }
            if (literal[i]) {
                sb.append(tokens.get(i));
            } else {
                sb.append(KeyComponents.require(tokens.get(i), values[v++]));
            }
        }
        return sb.toString();
    }

    /**
     * Splits a key against this pattern and returns the placeholder values in order.
     *
     * @throws KeyFormatException when segment count, a literal or a component is wrong
     */
    public List<String> match(String key) {
        if (key == null) {
            throw new KeyFormatException(null, "key is null, expected " + pattern);
        }
        String[] parts = key.split("#", -1);
        if (parts.length != tokens.size()) {
            throw new KeyFormatException(
                    null,
                    "key '"
                            + KeyComponents.shown(key)
                            + "' has "
                            + parts.length
                            + " '#'-separated segments; "
                            + pattern
                            + " has "
                            + tokens.size());
        }
        List<String> values = new ArrayList<>(placeholders.size());
        for (int i = 0; i < parts.length; i++) {
            if (literal[i]) {
                if (!tokens.get(i).equals(parts[i])) {
                    throw new KeyFormatException(
                            null,
                            "key '"
                                    + KeyComponents.shown(key)
                                    + "' has '"
                                    + parts[i]
                                    + "' at segment "
                                    + i
                                    + " where "
                                    + pattern
                                    + " expects '"
                                    + tokens.get(i)
                                    + "'");
                }
            } else {
                values.add(KeyComponents.require(tokens.get(i), parts[i]));
            }
        }
        return values;
    }

    /** True when {@code key} matches this pattern. */
    public boolean matches(String key) {
        try {
            match(key);
            return true;
        } catch (KeyFormatException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return pattern;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyPattern p && p.pattern.equals(pattern);
    }

    @Override
    public int hashCode() {
        return pattern.hashCode();
    }
}
