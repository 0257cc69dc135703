package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.partiql.Syntax.Bag;
import io.streamledger.local.partiql.Syntax.Entry;
import io.streamledger.local.partiql.Syntax.Expr;
import io.streamledger.local.partiql.Syntax.ListExpr;
import io.streamledger.local.partiql.Syntax.Literal;
import io.streamledger.local.partiql.Syntax.Param;
import io.streamledger.local.partiql.Syntax.Tuple;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Binds one execution's {@code Parameters} to a statement: turns literals, parameters and the
 * tuples, lists and sets built of them into fresh wire values (the engine stores what it is given,
 * so a cached statement's literals are copied, never shared).
 */
final class Binder {
    private final List<ObjectNode> params;

    private Binder(List<ObjectNode> params) {
        this.params = params;
    }

    /**
     * Validates the request's parameters against the statement's {@code ?} count: fewer is
     * DynamoDB's error, more are ignored as DynamoDB ignores them.
     */
    static Binder of(@Nullable JsonNode parameters, int expected) {
        List<ObjectNode> values = new ArrayList<>();
        if (parameters != null && !parameters.isNull()) {
            if (!parameters.isArray()) {
                throw new ApiException(
                        "SerializationException", 400, "Start of list found where not expected");
            }
            if (parameters.isEmpty()) {
                throw Messages.memberLength(
                        "parameters", "[]", "have length greater than or equal to 1");
            }
            for (JsonNode p : parameters) {
                if (!p.isObject()) {
                    throw new ApiException(
                            "SerializationException",
                            400,
                            "Start of structure or map found where not expected.");
                }
                AttributeValues.validateValue(p);
                values.add((ObjectNode) p);
            }
        }
        if (values.size() < expected) {
            throw Messages.validation(Messages.PARAMETER_COUNT);
        }
        return new Binder(values);
    }

    /** The wire value of a constant expression. */
    ObjectNode value(Expr e) {
        if (e instanceof Literal l) {
            return (ObjectNode) l.value().deepCopy();
        }
        if (e instanceof Param p) {
            // each ? is bound once, and a request's parameters are not used after it
            return params.get(p.index());
        }
        if (e instanceof Tuple t) {
            ObjectNode m = AttributeValues.JSON.objectNode();
            ObjectNode map = m.putObject("M");
            for (Entry en : t.entries()) {
                map.set(en.key(), value(en.value()));
            }
            return m;
        }
        if (e instanceof ListExpr l) {
            ObjectNode o = AttributeValues.JSON.objectNode();
            ArrayNode a = o.putArray("L");
            for (Expr x : l.elements()) {
                a.add(value(x));
            }
            return o;
        }
        if (e instanceof Bag b) {
            ObjectNode first = value(b.elements().get(0));
            String type = first.has("S") ? "S" : "N";
            ObjectNode o = AttributeValues.JSON.objectNode();
            ArrayNode a = o.putArray(type + "S");
            for (Expr x : b.elements()) {
                a.add(((Literal) x).value().get(type).asText());
            }
            AttributeValues.validateValue(o);
            return o;
        }
        throw Messages.validation("Unsupported value in statement: " + e);
    }

    /** The item of an INSERT: its tuple as a map of attributes. */
    ObjectNode item(Tuple t) {
        ObjectNode item = AttributeValues.JSON.objectNode();
        for (Entry en : t.entries()) {
            item.set(en.key(), value(en.value()));
        }
        return item;
    }
}
