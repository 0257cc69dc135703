package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.local.dynamodb.expr.Ast.And;
import io.streamledger.local.dynamodb.expr.Ast.Between;
import io.streamledger.local.dynamodb.expr.Ast.Comparator;
import io.streamledger.local.dynamodb.expr.Ast.Comparison;
import io.streamledger.local.dynamodb.expr.Ast.Condition;
import io.streamledger.local.dynamodb.expr.Ast.FunctionCall;
import io.streamledger.local.dynamodb.expr.Ast.Operand;
import io.streamledger.local.dynamodb.expr.Ast.PathOperand;
import io.streamledger.local.dynamodb.expr.Ast.ValueOperand;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A Query's key condition reduced to equality on every partition key attribute (and on a leading
 * run of sort key attributes) plus an optional condition (=, <, <=, >, >=, BETWEEN, begins_with) on
 * the next sort key attribute — the access shapes of AP02–AP06, AP11; {@code prefix} holds the
 * equal values in key order and {@code rangePosition} is where the conditioned part sits.
 */
record KeyCondition(
        List<Object> prefix,
        @Nullable Comparator rangeOp,
        @Nullable JsonNode rangeValue,
        @Nullable JsonNode rangeHigh,
        boolean beginsWith) {

    static KeyCondition of(Condition c, KeyDef key) {
        List<Condition> parts = new ArrayList<>();
        flatten(c, parts);
        int maxParts = key.hashes().size() + Math.max(key.ranges().size(), 1);
        if (parts.size() > maxParts) {
            throw invalid(
                    maxParts == 2
                            ? "Conditions can be of length 1 or 2 only"
                            : "Conditions can be of length 1 to " + maxParts + " only");
        }
        Map<String, Condition> byAttr = new HashMap<>();
        for (Condition p : parts) {
            String attr = attribute(p);
            if (!key.isKeyAttribute(attr)) {
                throw invalid("Query condition missed key schema element: " + key.hash());
            }
            if (byAttr.put(attr, p) != null) {
                throw invalid("Query key condition not supported");
            }
        }
        List<Object> prefix = new ArrayList<>();
        for (int i = 0; i < key.hashes().size(); i++) {
            String attr = key.hashes().get(i);
            Condition p = byAttr.get(attr);
            if (p == null) {
                throw invalid("Query condition missed key schema element: " + attr);
            }
            if (!(p instanceof Comparison cmp) || cmp.op() != Comparator.EQ) {
                throw invalid("Query key condition not supported");
            }
            JsonNode v = value(cmp.right());
            checkType(v, key.hashTypes().get(i));
            prefix.add(KeyValue.part(v));
        }
        // sort key attributes: conditions on a leading run, all "=" but the last
        int last = -1;
        for (int i = 0; i < key.ranges().size(); i++) {
            if (byAttr.containsKey(key.ranges().get(i))) {
                if (last != i - 1) {
                    throw invalid(
                            "Query key condition not supported: a condition on sort key attribute "
                                    + key.ranges().get(i)
                                    + " requires conditions on the sort key attributes before it");
                }
                last = i;
            }
        }
        for (int i = 0; i < last; i++) {
            Condition p = byAttr.get(key.ranges().get(i));
            if (!(p instanceof Comparison cmp) || cmp.op() != Comparator.EQ) {
                throw invalid(
                        "Query key condition not supported: only the last sort key attribute of"
                                + " a condition may use an operator other than =");
            }
            JsonNode v = value(cmp.right());
            checkType(v, key.rangeTypes().get(i));
            prefix.add(KeyValue.part(v));
        }
        if (last < 0) {
            return new KeyCondition(List.copyOf(prefix), null, null, null, false);
        }
        String rangeType = key.rangeTypes().get(last);
        Condition p = byAttr.get(key.ranges().get(last));
        Comparator op = null;
        JsonNode value;
        JsonNode high = null;
        boolean begins = false;
        if (p instanceof Comparison cmp) {
            if (cmp.op() == Comparator.NE) {
                throw invalid("Unsupported operator on KeyCondition: <>");
            }
            op = cmp.op();
            value = value(cmp.right());
        } else if (p instanceof Between b) {
            value = value(b.low());
            high = value(b.high());
            checkType(high, rangeType);
            Integer order = AttributeValues.compare(value, high);
            if (order != null && order > 0) {
                throw invalid(
                        "The BETWEEN operator requires upper bound to be greater than or"
                                + " equal to lower bound");
            }
        } else if (p instanceof FunctionCall f && f.name().equals("begins_with")) {
            begins = true;
            value = value(f.args().get(1));
            if (rangeType.equals("N")) {
                throw invalid(
                        "Invalid KeyConditionExpression: Incorrect operand type for"
                                + " operator or function; operator or function:"
                                + " begins_with, operand type: N");
            }
        } else {
            throw invalid("Query key condition not supported");
        }
        checkType(value, rangeType);
        return new KeyCondition(List.copyOf(prefix), op, value, high, begins);
    }

    /** Position of the conditioned sort key part in a stored key. */
    int rangePosition() {
        return prefix.size();
    }

    /** Inclusive lower bound of the keys to read. */
    KeyValue lowerKey() {
        List<Object> parts = new ArrayList<>(prefix);
        parts.add(lowBound());
        return KeyValue.of(parts);
    }

    /** Inclusive upper bound of the keys to read. */
    KeyValue upperKey() {
        List<Object> parts = new ArrayList<>(prefix);
        parts.add(highBound());
        parts.add(KeyValue.MAX);
        parts.add(KeyValue.MAX);
        return KeyValue.of(parts);
    }

    private static void flatten(Condition c, List<Condition> out) {
        if (c instanceof And a) {
            flatten(a.left(), out);
            flatten(a.right(), out);
        } else {
            out.add(c);
        }
    }

    private static String attribute(Condition c) {
        Operand o;
        if (c instanceof Comparison cmp) {
            o = cmp.left();
        } else if (c instanceof Between b) {
            o = b.value();
        } else if (c instanceof FunctionCall f) {
            o = f.args().get(0);
        } else {
            throw invalid(
                    "Invalid operator used in KeyConditionExpression: "
                            + c.getClass().getSimpleName().toUpperCase());
        }
        if (!(o instanceof PathOperand p) || !p.path().isTopLevel()) {
            throw invalid("Invalid KeyConditionExpression: key attribute must be a top-level name");
        }
        return p.path().top();
    }

    private static JsonNode value(Operand o) {
        if (!(o instanceof ValueOperand v)) {
            throw invalid("Invalid KeyConditionExpression: the key must be compared to a value");
        }
        return v.value();
    }

    private static void checkType(JsonNode v, String type) {
        if (!v.has(type)) {
            throw invalid(
                    "One or more parameter values were invalid: Condition parameter type does not"
                            + " match schema type");
        }
    }

    private static ApiException invalid(String message) {
        return ApiException.validation(message);
    }

    /** True if a sort key value satisfies the sort-key condition. */
    boolean matchesRange(@Nullable Object rangePart) {
        if (rangeValue == null) {
            return true;
        }
        if (rangePart == null) {
            return false;
        }
        Object v = KeyValue.part(rangeValue);
        if (beginsWith) {
            if (rangePart instanceof String s) {
                return s.startsWith((String) v);
            }
            byte[] b = ((KeyValue.Bytes) rangePart).bytes();
            byte[] pre = ((KeyValue.Bytes) v).bytes();
            if (pre.length > b.length) {
                return false;
            }
            for (int i = 0; i < pre.length; i++) {
                if (b[i] != pre[i]) {
                    return false;
                }
            }
            return true;
        }
        int c = KeyValue.of(rangePart).compareTo(KeyValue.of(v));
        if (rangeHigh != null) {
            return c >= 0
                    && KeyValue.of(rangePart).compareTo(KeyValue.of(KeyValue.part(rangeHigh))) <= 0;
        }
        return switch (rangeOp) {
            case EQ -> c == 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            case GE -> c >= 0;
            default -> false;
        };
    }

    /** Lower bound of the sort key to seek to (inclusive), or MIN. */
    Object lowBound() {
        if (rangeValue == null || rangeOp == Comparator.LT || rangeOp == Comparator.LE) {
            return KeyValue.MIN;
        }
        return KeyValue.part(rangeValue);
    }

    /** Upper bound of the sort key (inclusive), or MAX. */
    Object highBound() {
        if (rangeHigh != null) {
            return KeyValue.part(rangeHigh);
        }
        if (rangeValue == null
                || beginsWith
                || rangeOp == Comparator.GT
                || rangeOp == Comparator.GE) {
            return KeyValue.MAX;
        }
        return KeyValue.part(rangeValue);
    }
}
