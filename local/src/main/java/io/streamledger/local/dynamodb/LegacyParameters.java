package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.local.dynamodb.expr.Ast.AddAction;
import io.streamledger.local.dynamodb.expr.Ast.And;
import io.streamledger.local.dynamodb.expr.Ast.Between;
import io.streamledger.local.dynamodb.expr.Ast.Comparator;
import io.streamledger.local.dynamodb.expr.Ast.Comparison;
import io.streamledger.local.dynamodb.expr.Ast.Condition;
import io.streamledger.local.dynamodb.expr.Ast.DeleteAction;
import io.streamledger.local.dynamodb.expr.Ast.FunctionCall;
import io.streamledger.local.dynamodb.expr.Ast.In;
import io.streamledger.local.dynamodb.expr.Ast.Not;
import io.streamledger.local.dynamodb.expr.Ast.Operand;
import io.streamledger.local.dynamodb.expr.Ast.Or;
import io.streamledger.local.dynamodb.expr.Ast.PathOperand;
import io.streamledger.local.dynamodb.expr.Ast.RemoveAction;
import io.streamledger.local.dynamodb.expr.Ast.SetAction;
import io.streamledger.local.dynamodb.expr.Ast.UpdateAction;
import io.streamledger.local.dynamodb.expr.Ast.ValueOperand;
import io.streamledger.local.dynamodb.expr.Path;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * DynamoDB's legacy (non-expression) request parameters — {@code Expected}, {@code KeyConditions},
 * {@code QueryFilter}, {@code ScanFilter}, {@code AttributeUpdates}, {@code ConditionalOperator} —
 * translated into the expression AST, so that older clients (SDK v1, DynamoDBMapper) get the very
 * evaluator the expression API uses (AP08/AP16/AP17 guards, AP02–AP06 key conditions).
 */
final class LegacyParameters {
    /** Non-expression parameters, in the order DynamoDB names them in its mixing error. */
    private static final List<String> LEGACY =
            List.of(
                    "AttributesToGet",
                    "AttributeUpdates",
                    "ConditionalOperator",
                    "Expected",
                    "KeyConditions",
                    "QueryFilter",
                    "ScanFilter");

    private static final List<String> EXPRESSIONS =
            List.of(
                    "ConditionExpression",
                    "FilterExpression",
                    "KeyConditionExpression",
                    "ProjectionExpression",
                    "UpdateExpression");

    private static final Set<String> OPERATORS =
            Set.of(
                    "EQ",
                    "NE",
                    "LE",
                    "LT",
                    "GE",
                    "GT",
                    "NOT_NULL",
                    "NULL",
                    "CONTAINS",
                    "NOT_CONTAINS",
                    "BEGINS_WITH",
                    "IN",
                    "BETWEEN");

    /** Sort-key operators a KeyConditions entry may use (the partition key takes EQ only). */
    private static final Set<String> KEY_OPERATORS =
            Set.of("EQ", "LE", "LT", "GE", "GT", "BEGINS_WITH", "BETWEEN");

    private static final Set<String> SCALAR = Set.of("S", "N", "B");

    private LegacyParameters() {}

    /** True if the request carries any non-expression parameter (non-null). */
    static boolean present(JsonNode request) {
        for (String p : LEGACY) {
            if (request.hasNonNull(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rejects a request that mixes legacy and expression parameters, with DynamoDB's message naming
     * both sets.
     */
    static void rejectMixing(JsonNode request) {
        List<String> legacy = presentOf(request, LEGACY);
        if (legacy.isEmpty()) {
            return;
        }
        List<String> expressions = presentOf(request, EXPRESSIONS);
        if (!expressions.isEmpty()) {
            throw ApiException.validation(
                    "Can not use both expression and non-expression parameters in the same request:"
                            + " Non-expression parameters: {"
                            + String.join(", ", legacy)
                            + "} Expression parameters: {"
                            + String.join(", ", expressions)
                            + "}");
        }
    }

    private static List<String> presentOf(JsonNode request, List<String> names) {
        List<String> out = new ArrayList<>();
        for (String p : names) {
            if (request.hasNonNull(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** {@code Expected} (with ConditionalOperator) as a condition; null when absent. */
    static @Nullable Condition expected(JsonNode request) {
        JsonNode expected = request.get("Expected");
        if (expected == null || expected.isNull()) {
            conditionalOperator(request);
            return null;
        }
        List<Condition> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            parts.add(expectedEntry(e.getKey(), e.getValue()));
        }
        return combine(parts, conditionalOperator(request));
    }

    private static Condition expectedEntry(String attr, JsonNode spec) {
        boolean hasValue = spec.hasNonNull("Value");
        boolean hasExists = spec.hasNonNull("Exists");
        boolean hasOperator = spec.hasNonNull("ComparisonOperator");
        boolean hasList = spec.hasNonNull("AttributeValueList");
        if ((hasValue || hasExists) && (hasOperator || hasList)) {
            throw invalid(
                    "One or more parameter values were invalid: "
                            + (hasValue ? "Value" : "Exists")
                            + " and "
                            + (hasOperator ? "ComparisonOperator" : "AttributeValueList")
                            + " cannot be used together for Attribute: "
                            + attr);
        }
        if (hasOperator || hasList) {
            return condition(attr, spec, "Expected");
        }
        boolean exists = !hasExists || spec.get("Exists").asBoolean(true);
        if (exists && !hasValue) {
            throw invalid(
                    "One or more parameter values were invalid: Value must be provided when Exists"
                            + " is true for Attribute: "
                            + attr);
        }
        if (!exists && hasValue) {
            throw invalid(
                    "One or more parameter values were invalid: Value cannot be used when Exists"
                            + " is false for Attribute: "
                            + attr);
        }
        if (!exists) {
            return new FunctionCall("attribute_not_exists", List.of(path(attr)));
        }
        JsonNode v = value(spec.get("Value"), attr);
        return new Comparison(Comparator.EQ, path(attr), operand(attr, v));
    }

    /** {@code QueryFilter} or {@code ScanFilter}; key attributes are refused in a QueryFilter. */
    static @Nullable Condition filter(JsonNode request, String param, @Nullable KeyDef key) {
        JsonNode filter = request.get(param);
        if (filter == null || filter.isNull()) {
            conditionalOperator(request);
            return null;
        }
        List<Condition> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = filter.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (key != null && key.isKeyAttribute(e.getKey())) {
                throw invalid(
                        "QueryFilter can only contain non-primary key attributes: Primary key"
                                + " attribute: "
                                + e.getKey());
            }
            parts.add(condition(e.getKey(), e.getValue(), param));
        }
        return combine(parts, conditionalOperator(request));
    }

    /** {@code KeyConditions} as the condition {@link KeyCondition#of} reduces. */
    static Condition keyConditions(JsonNode request, KeyDef key) {
        JsonNode kc = request.get("KeyConditions");
        if (kc.isEmpty()) {
            throw invalid("Conditions can be of length 1 or 2 only");
        }
        List<Condition> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = kc.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String op = e.getValue().path("ComparisonOperator").asText("");
            if (OPERATORS.contains(op) && !KEY_OPERATORS.contains(op)) {
                throw invalid("Attempted conditional constraint is not an indexable operation");
            }
            if (key.hashes().contains(e.getKey()) && OPERATORS.contains(op) && !op.equals("EQ")) {
                throw invalid("Query key condition not supported");
            }
            parts.add(condition(e.getKey(), e.getValue(), "KeyConditions"));
        }
        return combine(parts, "AND");
    }

    private static String conditionalOperator(JsonNode request) {
        return RequestSupport.enumParam(request, "ConditionalOperator", "AND", Set.of("AND", "OR"));
    }

    private static Condition combine(List<Condition> parts, String operator) {
        Condition c = parts.get(0);
        for (int i = 1; i < parts.size(); i++) {
            c = operator.equals("OR") ? new Or(c, parts.get(i)) : new And(c, parts.get(i));
        }
        return c;
    }

    /**
     * One {@code Condition} ({ComparisonOperator, AttributeValueList}) on a top-level attribute.
     */
    private static Condition condition(String attr, JsonNode spec, String param) {
        if (!spec.isObject()) {
            throw new ApiException(
                    "SerializationException",
                    400,
                    "Start of structure or map found where not expected.");
        }
        String op = spec.path("ComparisonOperator").asText(null);
        if (op == null) {
            throw invalid(
                    "One or more parameter values were invalid: ComparisonOperator must be"
                            + " specified for Attribute: "
                            + attr);
        }
        if (!OPERATORS.contains(op)) {
            throw invalid(
                    "1 validation error detected: Value '"
                            + op
                            + "' at '"
                            + lowerFirst(param)
                            + "."
                            + attr
                            + ".member.comparisonOperator' failed to satisfy constraint: Member"
                            + " must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS,"
                            + " EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
        }
        JsonNode list = spec.get("AttributeValueList");
        List<JsonNode> values = new ArrayList<>();
        if (list != null && !list.isNull()) {
            for (JsonNode v : list) {
                values.add(value(v, attr));
            }
        }
        int n = values.size();
        boolean countOk =
                switch (op) {
                    case "NOT_NULL", "NULL" -> n == 0;
                    case "IN" -> n >= 1;
                    case "BETWEEN" -> n == 2;
                    default -> n == 1;
                };
        if (!countOk) {
            throw invalid(
                    "One or more parameter values were invalid: Invalid number of argument(s) for"
                            + " the "
                            + op
                            + " ComparisonOperator");
        }
        for (JsonNode v : values) {
            String type = AttributeValues.type(v);
            boolean typeOk =
                    switch (op) {
                        case "EQ", "NE" -> true;
                        case "BEGINS_WITH" -> type.equals("S") || type.equals("B");
                        default -> SCALAR.contains(type);
                    };
            if (!typeOk) {
                throw invalid(
                        "One or more parameter values were invalid: ComparisonOperator "
                                + op
                                + " is not valid for "
                                + type
                                + " AttributeValue type");
            }
        }
        if (op.equals("BETWEEN")) {
            String lo = AttributeValues.type(values.get(0));
            String hi = AttributeValues.type(values.get(1));
            if (!lo.equals(hi)) {
                throw invalid(
                        "One or more parameter values were invalid: AttributeValues inside"
                                + " AttributeValueList must be of same type");
            }
            Integer order = AttributeValues.compare(values.get(0), values.get(1));
            if (order != null && order > 0) {
                throw invalid(
                        "The BETWEEN condition was provided a range where the lower bound is"
                                + " greater than the upper bound");
            }
        }
        PathOperand p = path(attr);
        return switch (op) {
            case "EQ" -> new Comparison(Comparator.EQ, p, operand(attr, values.get(0)));
            case "NE" -> new Comparison(Comparator.NE, p, operand(attr, values.get(0)));
            case "LE" -> new Comparison(Comparator.LE, p, operand(attr, values.get(0)));
            case "LT" -> new Comparison(Comparator.LT, p, operand(attr, values.get(0)));
            case "GE" -> new Comparison(Comparator.GE, p, operand(attr, values.get(0)));
            case "GT" -> new Comparison(Comparator.GT, p, operand(attr, values.get(0)));
            case "NOT_NULL" -> new FunctionCall("attribute_exists", List.of(p));
            case "NULL" -> new FunctionCall("attribute_not_exists", List.of(p));
            case "CONTAINS" ->
                    new FunctionCall("contains", List.of(p, operand(attr, values.get(0))));
            case "NOT_CONTAINS" ->
                    // the attribute must exist: a legacy NOT_CONTAINS on a missing one is false
                    new And(
                            new FunctionCall("attribute_exists", List.of(p)),
                            new Not(
                                    new FunctionCall(
                                            "contains", List.of(p, operand(attr, values.get(0))))));
            case "BEGINS_WITH" ->
                    new FunctionCall("begins_with", List.of(p, operand(attr, values.get(0))));
            case "IN" -> {
                List<Operand> candidates = new ArrayList<>();
                for (JsonNode v : values) {
                    candidates.add(operand(attr, v));
                }
                yield new In(p, candidates);
            }
            default -> new Between(p, operand(attr, values.get(0)), operand(attr, values.get(1)));
        };
    }

    /** {@code AttributeUpdates} as update actions (PUT = SET, DELETE = REMOVE or set DELETE). */
    static List<UpdateAction> attributeUpdates(JsonNode request) {
        JsonNode updates = request.get("AttributeUpdates");
        List<UpdateAction> actions = new ArrayList<>();
        if (updates == null || updates.isNull()) {
            return actions;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = updates.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String attr = e.getKey();
            JsonNode spec = e.getValue();
            String action = spec.path("Action").asText("PUT");
            if (!Set.of("PUT", "ADD", "DELETE").contains(action)) {
                throw invalid(
                        "1 validation error detected: Value '"
                                + action
                                + "' at 'attributeUpdates."
                                + attr
                                + ".member.action' failed to satisfy constraint: Member must"
                                + " satisfy enum value set: [ADD, PUT, DELETE]");
            }
            Path path = new Path(List.of(attr));
            JsonNode raw = spec.get("Value");
            if (raw == null || raw.isNull()) {
                if (!action.equals("DELETE")) {
                    throw invalid(
                            "One or more parameter values were invalid: Only DELETE action is"
                                    + " allowed when no attribute value is specified");
                }
                actions.add(new RemoveAction(path));
                continue;
            }
            JsonNode v = value(raw, attr);
            String type = AttributeValues.type(v);
            switch (action) {
                case "PUT" -> actions.add(new SetAction(path, operand(attr, v)));
                case "ADD" -> {
                    if (!Set.of("N", "SS", "NS", "BS").contains(type)) {
                        throw invalid(
                                "One or more parameter values were invalid: ADD action is not"
                                        + " supported for the type "
                                        + type);
                    }
                    actions.add(new AddAction(path, operand(attr, v)));
                }
                default -> {
                    if (!Set.of("SS", "NS", "BS").contains(type)) {
                        throw invalid(
                                "One or more parameter values were invalid: DELETE action with"
                                        + " value is not supported for the type "
                                        + type);
                    }
                    actions.add(new DeleteAction(path, operand(attr, v)));
                }
            }
        }
        return actions;
    }

    private static JsonNode value(JsonNode v, String attr) {
        try {
            AttributeValues.validateValue(v);
        } catch (ApiException e) {
            throw invalid(e.getMessage() + " for attribute " + attr);
        }
        return v;
    }

    private static PathOperand path(String attr) {
        return new PathOperand(new Path(List.of(attr)));
    }

    private static ValueOperand operand(String attr, JsonNode v) {
        return new ValueOperand(attr, v);
    }

    private static String lowerFirst(String s) {
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static ApiException invalid(String message) {
        return ApiException.validation(message);
    }
}
