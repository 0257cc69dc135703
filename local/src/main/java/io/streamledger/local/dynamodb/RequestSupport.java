package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.expr.Ast.Condition;
import io.streamledger.local.dynamodb.expr.ExpressionContext;
import io.streamledger.local.dynamodb.expr.Parser;
import io.streamledger.local.dynamodb.expr.Path;
import io.streamledger.local.dynamodb.expr.Projector;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/** Parameter parsing shared by the item, read and transaction operations (AP01–AP18 requests). */
final class RequestSupport {
    private static final Set<String> LEGACY =
            Set.of(
                    "Expected",
                    "AttributeUpdates",
                    "KeyConditions",
                    "QueryFilter",
                    "ScanFilter",
                    "ConditionalOperator");

    private RequestSupport() {}

    /** TransactWriteItems actions have no legacy members; refuse them clearly. */
    static void rejectLegacy(JsonNode request) {
        for (String p : LEGACY) {
            if (request.has(p)) {
                throw ApiException.validation(
                        "The legacy parameter "
                                + p
                                + " is not supported by this endpoint; use expressions instead");
            }
        }
    }

    static ExpressionContext context(JsonNode request, boolean usesExpressions) {
        ExpressionContext ctx =
                new ExpressionContext(
                        request.get("ExpressionAttributeNames"),
                        request.get("ExpressionAttributeValues"));
        if (!usesExpressions && request.has("ExpressionAttributeNames")) {
            throw ApiException.validation(
                    "ExpressionAttributeNames can only be specified when using expressions");
        }
        if (!usesExpressions && request.has("ExpressionAttributeValues")) {
            throw ApiException.validation(
                    "ExpressionAttributeValues can only be specified when using expressions:"
                            + " UpdateExpression and ConditionExpression are null");
        }
        return ctx;
    }

    /**
     * A write's ConditionExpression, or its legacy Expected (+ ConditionalOperator); null = none.
     */
    static @Nullable Condition writeCondition(JsonNode request, ExpressionContext ctx) {
        Condition c = condition(request, "ConditionExpression", ctx);
        return c != null ? c : LegacyParameters.expected(request);
    }

    static @Nullable Condition condition(JsonNode request, String param, ExpressionContext ctx) {
        JsonNode text = request.get(param);
        if (text == null || text.isNull()) {
            return null;
        }
        return Parser.condition(param, text.asText(), ctx);
    }

    /** ProjectionExpression or AttributesToGet as paths; null = whole item. */
    static @Nullable List<Path> projection(JsonNode request, ExpressionContext ctx) {
        JsonNode pe = request.get("ProjectionExpression");
        JsonNode atg = request.get("AttributesToGet");
        if (pe != null && atg != null) {
            throw ApiException.validation(
                    "Can not use both expression and non-expression parameters in the same request:"
                            + " Non-expression parameters: {AttributesToGet} Expression"
                            + " parameters: {ProjectionExpression}");
        }
        if (pe != null && !pe.isNull()) {
            return Parser.projection(pe.asText(), ctx);
        }
        if (atg != null) {
            List<Path> paths = new ArrayList<>();
            for (JsonNode n : atg) {
                paths.add(new Path(List.of(n.asText())));
            }
            return paths;
        }
        return null;
    }

    static ObjectNode project(ObjectNode item, @Nullable List<Path> projection) {
        return projection == null ? item : Projector.project(item, projection);
    }

    static String enumParam(JsonNode request, String param, String dflt, Set<String> allowed) {
        String v = request.path(param).asText(dflt);
        if (!allowed.contains(v)) {
            throw ApiException.validation(
                    "1 validation error detected: Value '"
                            + v
                            + "' at '"
                            + Character.toLowerCase(param.charAt(0))
                            + param.substring(1)
                            + "' failed to satisfy constraint: Member must satisfy enum value set: "
                            + allowed);
        }
        return v;
    }

    private static final Set<String> RETURN_VALUES =
            Set.of("NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW");

    /**
     * ReturnValues of a write: a value outside the enum is the usual enum error, a value the
     * operation does not offer (PutItem/DeleteItem take NONE or ALL_OLD) is DynamoDB's own error.
     */
    static String returnValues(JsonNode request, Set<String> offered) {
        String v = enumParam(request, "ReturnValues", "NONE", RETURN_VALUES);
        if (!offered.contains(v)) {
            throw ApiException.validation("Return values set to invalid value");
        }
        return v;
    }

    static Capacity.Mode capacityMode(JsonNode request) {
        return Capacity.Mode.of(request.path("ReturnConsumedCapacity").asText(null));
    }

    static ObjectNode item(JsonNode request, String param) {
        JsonNode item = request.get(param);
        if (item == null || !item.isObject()) {
            throw ApiException.validation(
                    "1 validation error detected: Value null at '"
                            + Character.toLowerCase(param.charAt(0))
                            + param.substring(1)
                            + "' failed to satisfy constraint: Member must not be null");
        }
        return AttributeValues.validateItem(item);
    }

    static ApiException conditionFailed(@Nullable ObjectNode old, boolean returnOld) {
        ObjectNode extra = null;
        if (returnOld && old != null) {
            extra = AttributeValues.JSON.objectNode();
            extra.set("Item", old);
        }
        return new ApiException(
                "ConditionalCheckFailedException", 400, "The conditional request failed", extra);
    }

    static boolean returnOldOnFailure(JsonNode request) {
        return enumParam(
                        request,
                        "ReturnValuesOnConditionCheckFailure",
                        "NONE",
                        Set.of("NONE", "ALL_OLD"))
                .equals("ALL_OLD");
    }
}
