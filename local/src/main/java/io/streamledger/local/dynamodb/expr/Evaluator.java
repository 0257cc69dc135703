package io.streamledger.local.dynamodb.expr;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.ItemSize;
import io.streamledger.local.dynamodb.expr.Ast.And;
import io.streamledger.local.dynamodb.expr.Ast.Between;
import io.streamledger.local.dynamodb.expr.Ast.Comparison;
import io.streamledger.local.dynamodb.expr.Ast.Condition;
import io.streamledger.local.dynamodb.expr.Ast.FunctionCall;
import io.streamledger.local.dynamodb.expr.Ast.In;
import io.streamledger.local.dynamodb.expr.Ast.Not;
import io.streamledger.local.dynamodb.expr.Ast.Operand;
import io.streamledger.local.dynamodb.expr.Ast.Or;
import io.streamledger.local.dynamodb.expr.Ast.PathOperand;
import io.streamledger.local.dynamodb.expr.Ast.SizeOperand;
import io.streamledger.local.dynamodb.expr.Ast.ValueOperand;
import io.streamledger.local.spi.ApiException;
import java.math.BigDecimal;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Evaluates conditions and filters against an item (AP08/AP16/AP17 guards): missing attributes make
 * comparisons false (except {@code <>}), mismatched types never compare.
 */
public final class Evaluator {
    private static final Set<String> TYPES =
            Set.of("S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M");

    private Evaluator() {}

    /** Evaluates a condition; a null item is "no item" (every path is absent). */
    public static boolean test(Condition c, @Nullable JsonNode item) {
        if (c instanceof And a) {
            return test(a.left(), item) && test(a.right(), item);
        }
        if (c instanceof Or o) {
            return test(o.left(), item) || test(o.right(), item);
        }
        if (c instanceof Not n) {
            return !test(n.inner(), item);
        }
        if (c instanceof Comparison cmp) {
            return compare(cmp, item);
        }
        if (c instanceof Between b) {
            JsonNode v = resolve(b.value(), item);
            JsonNode lo = resolve(b.low(), item);
            JsonNode hi = resolve(b.high(), item);
            Integer bounds = AttributeValues.compare(lo, hi);
            if (bounds != null && bounds > 0) {
                throw ApiException.validation(
                        "Invalid ConditionExpression: The BETWEEN operator requires upper bound to"
                                + " be greater than or equal to lower bound; lower operand: "
                                + lo
                                + ", upper operand: "
                                + hi);
            }
            Integer a = AttributeValues.compare(v, lo);
            Integer z = AttributeValues.compare(v, hi);
            return a != null && z != null && a >= 0 && z <= 0;
        }
        if (c instanceof In in) {
            JsonNode v = resolve(in.value(), item);
            for (Operand candidate : in.candidates()) {
                if (AttributeValues.valueEquals(v, resolve(candidate, item))) {
                    return true;
                }
            }
            return false;
        }
        return function((FunctionCall) c, item);
    }

    private static boolean compare(Comparison cmp, @Nullable JsonNode item) {
        JsonNode l = resolve(cmp.left(), item);
        JsonNode r = resolve(cmp.right(), item);
        switch (cmp.op()) {
            case EQ:
                return AttributeValues.valueEquals(l, r);
            case NE:
                return !AttributeValues.valueEquals(l, r);
            default:
                Integer order = AttributeValues.compare(l, r);
                if (order == null) {
                    return false;
                }
                return switch (cmp.op()) {
                    case LT -> order < 0;
                    case LE -> order <= 0;
                    case GT -> order > 0;
                    default -> order >= 0;
                };
        }
    }

    private static boolean function(FunctionCall f, @Nullable JsonNode item) {
        Path path = ((PathOperand) f.args().get(0)).path();
        JsonNode target = get(item, path);
        switch (f.name()) {
            case "attribute_exists":
                return target != null;
            case "attribute_not_exists":
                return target == null;
            case "attribute_type":
                {
                    JsonNode t = resolve(f.args().get(1), item);
                    if (t == null || !t.has("S") || !TYPES.contains(t.get("S").asText())) {
                        throw ApiException.validation(
                                "Invalid ConditionExpression: Invalid attribute type name found;"
                                        + " type: "
                                        + (t == null ? "null" : t)
                                        + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
                    }
                    return target != null
                            && AttributeValues.type(target).equals(t.get("S").asText());
                }
            case "begins_with":
                {
                    JsonNode prefix = resolve(f.args().get(1), item);
                    if (target == null || prefix == null) {
                        return false;
                    }
                    if (target.has("S") && prefix.has("S")) {
                        return target.get("S").asText().startsWith(prefix.get("S").asText());
                    }
                    if (target.has("B") && prefix.has("B")) {
                        byte[] t = AttributeValues.decodeBinary(target.get("B").asText());
                        byte[] pre = AttributeValues.decodeBinary(prefix.get("B").asText());
                        if (pre.length > t.length) {
                            return false;
                        }
                        for (int i = 0; i < pre.length; i++) {
                            if (t[i] != pre[i]) {
                                return false;
                            }
                        }
                        return true;
                    }
                    return false;
                }
            default: // contains
                {
                    JsonNode operand = resolve(f.args().get(1), item);
                    if (target == null || operand == null) {
                        return false;
                    }
                    String tt = AttributeValues.type(target);
                    String ot = AttributeValues.type(operand);
                    switch (tt) {
                        case "S":
                            return ot.equals("S")
                                    && target.get("S").asText().contains(operand.get("S").asText());
                        case "SS":
                        case "NS":
                        case "BS":
                            if (!ot.equals(tt.substring(0, 1))) {
                                return false;
                            }
                            return AttributeValues.setOf(tt, target.get(tt))
                                    .contains(
                                            AttributeValues.setIdentity(
                                                    tt, operand.get(ot).asText()));
                        case "L":
                            for (JsonNode e : target.get("L")) {
                                if (AttributeValues.valueEquals(e, operand)) {
                                    return true;
                                }
                            }
                            return false;
                        default:
                            return false;
                    }
                }
        }
    }

    /** Value of a condition operand, or null when the path is absent. */
    public static @Nullable JsonNode resolve(Operand o, @Nullable JsonNode item) {
        if (o instanceof ValueOperand v) {
            return v.value();
        }
        if (o instanceof PathOperand po) {
            return get(item, po.path());
        }
        if (o instanceof SizeOperand s) {
            JsonNode v = get(item, s.path());
            if (v == null) {
                return null;
            }
            String t = AttributeValues.type(v);
            long size =
                    switch (t) {
                        case "S" ->
                                v.get("S").asText().codePointCount(0, v.get("S").asText().length());
                        case "B" -> ItemSize.valueSize(v);
                        case "SS", "NS", "BS", "L", "M" -> v.get(t).size();
                        default ->
                                throw ApiException.validation(
                                        "Invalid ConditionExpression: Incorrect operand type for operator or"
                                                + " function; operator or function: size, operand type: "
                                                + t);
                    };
            return AttributeValues.n(BigDecimal.valueOf(size));
        }
        throw new IllegalStateException("not a condition operand: " + o);
    }

    /** Walks a document path through maps and lists; null when any step is absent. */
    public static @Nullable JsonNode get(@Nullable JsonNode item, Path path) {
        if (item == null) {
            return null;
        }
        JsonNode current = item.get(path.top());
        for (int i = 1; i < path.elements().size() && current != null; i++) {
            Object e = path.elements().get(i);
            if (e instanceof Integer idx) {
                JsonNode list = current.get("L");
                current = list == null || idx >= list.size() ? null : list.get(idx);
            } else {
                JsonNode map = current.get("M");
                current = map == null ? null : map.get((String) e);
            }
        }
        return current;
    }
}
