package io.streamledger.local.dynamodb.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.Numbers;
import io.streamledger.local.dynamodb.expr.Ast.AddAction;
import io.streamledger.local.dynamodb.expr.Ast.Arithmetic;
import io.streamledger.local.dynamodb.expr.Ast.DeleteAction;
import io.streamledger.local.dynamodb.expr.Ast.IfNotExists;
import io.streamledger.local.dynamodb.expr.Ast.ListAppend;
import io.streamledger.local.dynamodb.expr.Ast.Operand;
import io.streamledger.local.dynamodb.expr.Ast.PathOperand;
import io.streamledger.local.dynamodb.expr.Ast.RemoveAction;
import io.streamledger.local.dynamodb.expr.Ast.SetAction;
import io.streamledger.local.dynamodb.expr.Ast.UpdateAction;
import io.streamledger.local.dynamodb.expr.Ast.ValueOperand;
import io.streamledger.local.spi.ApiException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Applies an UpdateExpression (SET with + and -, if_not_exists, list_append; REMOVE; ADD; DELETE)
 * to a copy of an item; every right-hand side reads the item as it was before the update (AP16
 * outbox state moves, AP13 checkpoints).
 */
public final class Updater {
    private Updater() {}

    /** Checks the actions for overlapping paths and key attributes. */
    public static void validate(List<UpdateAction> actions, Set<String> keyAttributes) {
        for (int i = 0; i < actions.size(); i++) {
            Path a = actions.get(i).path();
            if (keyAttributes.contains(a.top())) {
                throw ApiException.validation(
                        "One or more parameter values were invalid: Cannot update attribute "
                                + a.top()
                                + ". This attribute is part of the key");
            }
            for (int j = i + 1; j < actions.size(); j++) {
                Path b = actions.get(j).path();
                if (a.overlaps(b)) {
                    String kind =
                            a.elements().size() == b.elements().size()
                                    ? "Two document paths conflict with each other; must remove"
                                            + " or rewrite one of these paths"
                                    : "Two document paths overlap with each other; must remove or"
                                            + " rewrite one of these paths";
                    throw ApiException.validation(
                            "Invalid UpdateExpression: "
                                    + kind
                                    + "; path one: "
                                    + render(a)
                                    + ", path two: "
                                    + render(b));
                }
            }
        }
    }

    static String render(Path p) {
        List<String> parts = new ArrayList<>();
        for (Object e : p.elements()) {
            parts.add(e instanceof Integer i ? "[" + i + "]" : (String) e);
        }
        return "[" + String.join(", ", parts) + "]";
    }

    /** Returns the updated copy of {@code old} (which may be null: the item is new). */
    public static ObjectNode apply(
            List<UpdateAction> actions, @Nullable ObjectNode old, ObjectNode keyAttributes) {
        ObjectNode item = old == null ? keyAttributes.deepCopy() : old.deepCopy();
        // evaluate all SET values first, against the old item
        List<JsonNode> setValues = new ArrayList<>();
        for (UpdateAction a : actions) {
            setValues.add(a instanceof SetAction s ? value(s.value(), old) : null);
        }
        List<RemoveAction> removes = new ArrayList<>();
        for (int i = 0; i < actions.size(); i++) {
            UpdateAction a = actions.get(i);
            if (a instanceof SetAction) {
                put(item, a.path(), setValues.get(i));
            } else if (a instanceof RemoveAction r) {
                removes.add(r);
            } else if (a instanceof AddAction add) {
                add(item, add);
            } else {
                delete(item, (DeleteAction) a);
            }
        }
        // list removals go from the highest index down so indexes mean the old positions
        removes.sort(
                Comparator.comparing(
                                (RemoveAction r) -> {
                                    Object last =
                                            r.path().elements().get(r.path().elements().size() - 1);
                                    return last instanceof Integer idx ? idx : -1;
                                })
                        .reversed());
        for (RemoveAction r : removes) {
            remove(item, r.path());
        }
        return item;
    }

    private static JsonNode value(Operand o, @Nullable JsonNode old) {
        if (o instanceof ValueOperand v) {
            return v.value();
        }
        if (o instanceof PathOperand po) {
            JsonNode v = Evaluator.get(old, po.path());
            if (v == null) {
                throw ApiException.validation(
                        "The provided expression refers to an attribute that does not exist in the"
                                + " item");
            }
            return v;
        }
        if (o instanceof IfNotExists ine) {
            JsonNode v = Evaluator.get(old, ine.path());
            return v != null ? v : value(ine.fallback(), old);
        }
        if (o instanceof ListAppend la) {
            JsonNode a = value(la.first(), old);
            JsonNode b = value(la.second(), old);
            if (!a.has("L") || !b.has("L")) {
                throw ApiException.validation(
                        "Invalid UpdateExpression: Incorrect operand type for operator or function;"
                                + " operator or function: list_append, operand type: "
                                + AttributeValues.type(a.has("L") ? b : a));
            }
            ArrayNode out = AttributeValues.JSON.arrayNode();
            out.addAll((ArrayNode) a.get("L"));
            out.addAll((ArrayNode) b.get("L"));
            ObjectNode l = AttributeValues.JSON.objectNode();
            l.set("L", out);
            return l;
        }
        if (o instanceof Arithmetic ar) {
            JsonNode a = value(ar.left(), old);
            JsonNode b = value(ar.right(), old);
            if (!a.has("N") || !b.has("N")) {
                throw ApiException.validation(
                        "Invalid UpdateExpression: Incorrect operand type for operator or function;"
                                + " operator: "
                                + ar.op()
                                + ", operand type: "
                                + AttributeValues.type(a.has("N") ? b : a));
            }
            BigDecimal x = new BigDecimal(a.get("N").asText());
            BigDecimal y = new BigDecimal(b.get("N").asText());
            BigDecimal r = ar.op() == '+' ? x.add(y) : x.subtract(y);
            return AttributeValues.n(Numbers.check(r));
        }
        throw ApiException.validation(
                "Invalid UpdateExpression: The function is not allowed in an update expression");
    }

    private static final String INVALID_PATH =
            "The document path provided in the update expression is invalid for update";

    private static void put(ObjectNode item, Path path, JsonNode value) {
        if (path.isTopLevel()) {
            item.set(path.top(), value.deepCopy());
            return;
        }
        JsonNode parent = parentOf(item, path);
        Object last = path.elements().get(path.elements().size() - 1);
        if (last instanceof Integer idx) {
            ArrayNode list = parent != null ? (ArrayNode) parent.get("L") : null;
            if (list == null) {
                throw ApiException.validation(INVALID_PATH);
            }
            if (idx >= list.size()) {
                list.add(value.deepCopy());
            } else {
                list.set(idx, value.deepCopy());
            }
        } else {
            ObjectNode map = parent != null ? (ObjectNode) parent.get("M") : null;
            if (map == null) {
                throw ApiException.validation(INVALID_PATH);
            }
            map.set((String) last, value.deepCopy());
        }
    }

    private static @Nullable JsonNode parentOf(ObjectNode item, Path path) {
        Path parentPath = new Path(path.elements().subList(0, path.elements().size() - 1));
        return Evaluator.get(item, parentPath);
    }

    private static void remove(ObjectNode item, Path path) {
        if (path.isTopLevel()) {
            item.remove(path.top());
            return;
        }
        JsonNode parent = parentOf(item, path);
        if (parent == null) {
            return;
        }
        Object last = path.elements().get(path.elements().size() - 1);
        if (last instanceof Integer idx) {
            JsonNode list = parent.get("L");
            if (list instanceof ArrayNode a && idx < a.size()) {
                a.remove(idx);
            }
        } else {
            JsonNode map = parent.get("M");
            if (map instanceof ObjectNode m) {
                m.remove((String) last);
            }
        }
    }

    private static void add(ObjectNode item, AddAction add) {
        JsonNode v = add.value().value();
        String vt = AttributeValues.type(v);
        if (!Set.of("N", "SS", "NS", "BS").contains(vt)) {
            throw ApiException.validation(
                    "Invalid UpdateExpression: Incorrect operand type for operator or function;"
                            + " operator: ADD, operand type: "
                            + typeName(vt));
        }
        JsonNode current = Evaluator.get(item, add.path());
        if (current == null) {
            put(item, add.path(), v);
            return;
        }
        String ct = AttributeValues.type(current);
        if (!ct.equals(vt)) {
            throw ApiException.validation(
                    "An operand in the update expression has an incorrect data type");
        }
        if (vt.equals("N")) {
            BigDecimal sum =
                    new BigDecimal(current.get("N").asText())
                            .add(new BigDecimal(v.get("N").asText()));
            put(item, add.path(), AttributeValues.n(Numbers.check(sum)));
            return;
        }
        Set<Object> have = AttributeValues.setOf(ct, current.get(ct));
        ArrayNode merged = ((ArrayNode) current.get(ct)).deepCopy();
        for (JsonNode e : v.get(vt)) {
            if (have.add(AttributeValues.setIdentity(vt, e.asText()))) {
                merged.add(e);
            }
        }
        ObjectNode out = AttributeValues.JSON.objectNode();
        out.set(vt, merged);
        put(item, add.path(), out);
    }

    private static void delete(ObjectNode item, DeleteAction del) {
        JsonNode v = del.value().value();
        String vt = AttributeValues.type(v);
        if (!Set.of("SS", "NS", "BS").contains(vt)) {
            throw ApiException.validation(
                    "Invalid UpdateExpression: Incorrect operand type for operator or function;"
                            + " operator: DELETE, operand type: "
                            + typeName(vt));
        }
        JsonNode current = Evaluator.get(item, del.path());
        if (current == null) {
            return;
        }
        String ct = AttributeValues.type(current);
        if (!ct.equals(vt)) {
            throw ApiException.validation(
                    "An operand in the update expression has an incorrect data type");
        }
        Set<Object> drop = AttributeValues.setOf(vt, v.get(vt));
        ArrayNode kept = AttributeValues.JSON.arrayNode();
        for (JsonNode e : current.get(ct)) {
            if (!drop.contains(AttributeValues.setIdentity(ct, e.asText()))) {
                kept.add(e);
            }
        }
        if (kept.isEmpty()) {
            remove(item, del.path());
        } else {
            ObjectNode out = AttributeValues.JSON.objectNode();
            out.set(ct, kept);
            put(item, del.path(), out);
        }
    }

    private static String typeName(String t) {
        return switch (t) {
            case "S" -> "STRING";
            case "N" -> "NUMBER";
            case "B" -> "BINARY";
            case "L" -> "LIST";
            case "M" -> "MAP";
            case "BOOL" -> "BOOLEAN";
            case "NULL" -> "NULL";
            default -> t;
        };
    }
}
