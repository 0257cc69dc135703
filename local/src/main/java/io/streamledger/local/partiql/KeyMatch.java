package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.KeyDef;
import io.streamledger.local.partiql.Syntax.And;
import io.streamledger.local.partiql.Syntax.Cmp;
import io.streamledger.local.partiql.Syntax.Cond;
import io.streamledger.local.partiql.Syntax.Expr;
import io.streamledger.local.partiql.Syntax.Literal;
import io.streamledger.local.partiql.Syntax.Param;
import io.streamledger.local.partiql.Syntax.PathExpr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A WHERE clause split into an equality on every key attribute (the item a single-item statement
 * addresses, AP01 key reads and AP16/AP17 guarded writes) and the rest of its conjuncts, which
 * become the operation's condition.
 */
record KeyMatch(Map<String, Expr> key, @Nullable Cond rest) {

    /** The conjuncts of a condition, left to right. */
    static List<Cond> conjuncts(@Nullable Cond c) {
        List<Cond> out = new ArrayList<>();
        if (c != null) {
            flatten(c, out);
        }
        return out;
    }

    private static void flatten(Cond c, List<Cond> out) {
        if (c instanceof And a) {
            flatten(a.left(), out);
            flatten(a.right(), out);
        } else {
            out.add(c);
        }
    }

    static @Nullable Cond and(List<Cond> conjuncts) {
        Cond out = null;
        for (Cond c : conjuncts) {
            out = out == null ? c : new And(out, c);
        }
        return out;
    }

    /** The constant an equality conjunct gives a top-level attribute, or null. */
    static @Nullable Expr equality(Cond c, String attribute) {
        if (!(c instanceof Cmp cmp) || !cmp.op().equals("=")) {
            return null;
        }
        if (isAttribute(cmp.left(), attribute) && isConstant(cmp.right())) {
            return cmp.right();
        }
        if (isAttribute(cmp.right(), attribute) && isConstant(cmp.left())) {
            return cmp.left();
        }
        return null;
    }

    static boolean isAttribute(Expr e, String attribute) {
        return e instanceof PathExpr p && p.isTopLevel() && p.top().equals(attribute);
    }

    static boolean isConstant(Expr e) {
        return e instanceof Literal || e instanceof Param;
    }

    /**
     * Equalities on every attribute of {@code key} and the remaining conjuncts; null if any lacks.
     */
    static @Nullable KeyMatch fullKey(Cond where, KeyDef key) {
        List<Cond> rest = conjuncts(where);
        Map<String, Expr> values = new LinkedHashMap<>();
        List<String> attributes = new ArrayList<>(key.hashes());
        attributes.addAll(key.ranges());
        for (String attr : attributes) {
            Expr found = null;
            for (int i = 0; i < rest.size(); i++) {
                found = equality(rest.get(i), attr);
                if (found != null) {
                    rest.remove(i);
                    break;
                }
            }
            if (found == null) {
                return null;
            }
            values.put(attr, found);
        }
        return new KeyMatch(values, and(rest));
    }

    /** The Key parameter of a bound key, its values checked against the key schema's types. */
    static ObjectNode boundKey(Map<String, Expr> key, KeyDef def, Binder binder) {
        ObjectNode k = AttributeValues.JSON.objectNode();
        for (Map.Entry<String, Expr> e : key.entrySet()) {
            ObjectNode v = binder.value(e.getValue());
            checkType(e.getKey(), v, def);
            k.set(e.getKey(), v);
        }
        return k;
    }

    /** An INSERT's item must hold every key attribute with the schema's type. */
    static void checkItemKey(ObjectNode item, KeyDef def) {
        List<String> attributes = new ArrayList<>(def.hashes());
        attributes.addAll(def.ranges());
        for (String attr : attributes) {
            JsonNode v = item.get(attr);
            if (v == null) {
                throw Messages.keyAbsent(attr);
            }
            checkType(attr, v, def);
        }
    }

    static void checkType(String attribute, JsonNode value, KeyDef def) {
        int h = def.hashes().indexOf(attribute);
        String type =
                h >= 0
                        ? def.hashTypes().get(h)
                        : def.rangeTypes().get(def.ranges().indexOf(attribute));
        if (!value.has(type)) {
            throw Messages.keyTypeMismatch(attribute);
        }
    }
}
