package io.streamledger.local.dynamodb.expr;

import java.util.List;

/**
 * A document path (AP07/AP11 nested attributes) such as {@code a.b[0].c}, with expression attribute
 * names already substituted; elements are {@link String} (map key) or {@link Integer} (list index).
 */
public record Path(List<Object> elements) {

    public String top() {
        return (String) elements.get(0);
    }

    public boolean isTopLevel() {
        return elements.size() == 1;
    }

    /** True if one path is a prefix of (or equal to) the other. */
    public boolean overlaps(Path other) {
        int n = Math.min(elements.size(), other.elements.size());
        for (int i = 0; i < n; i++) {
            if (!elements.get(i).equals(other.elements.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Object e : elements) {
            if (e instanceof Integer i) {
                sb.append('[').append(i).append(']');
            } else {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(e);
            }
        }
        return sb.toString();
    }
}
