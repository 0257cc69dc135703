package io.streamledger.local.dynamodb.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Parser, evaluator, updater and projector on wire-form items (AP08/AP13/AP16 guards). */
class ExpressionEngineTest {
    private static final ObjectMapper M = new ObjectMapper();

    private static JsonNode json(String s) {
        try {
            return M.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final ObjectNode ITEM =
            (ObjectNode)
                    json(
                            "{'PK':{'S':'o1'},'qty':{'N':'5'},'st':{'S':'READY'},"
                                    + "'tags':{'SS':['a','b']},'doc':{'M':{'l':{'L':[{'N':'1'},{'M':{'x':{'S':'deep'}}}]}}},"
                                    + "'bin':{'B':'AQID'}}");

    private static boolean eval(String expr, String values) {
        ExpressionContext ctx = new ExpressionContext(null, values == null ? null : json(values));
        boolean r = Evaluator.test(Parser.condition("ConditionExpression", expr, ctx), ITEM);
        ctx.checkAllUsed();
        return r;
    }

    @Test
    void precedenceIsNotThenAndThenOr() {
        // true OR (false AND false) = true; (true OR false) AND false would be false
        assertThat(
                        eval(
                                "qty = :five OR qty = :one AND qty = :two",
                                "{':five':{'N':'5'},':one':{'N':'1'},':two':{'N':'2'}}"))
                .isTrue();
        assertThat(
                        eval(
                                "(qty = :five OR qty = :one) AND qty = :two",
                                "{':five':{'N':'5'},':one':{'N':'1'},':two':{'N':'2'}}"))
                .isFalse();
        assertThat(eval("NOT qty = :one AND attribute_exists(st)", "{':one':{'N':'1'}}")).isTrue();
    }

    @Test
    void theSameExpressionTextIsResolvedAgainstEachRequestsOwnValues() {
        // tokens of a repeated expression are cached; names/values must still come per request
        String expr = "qty = :v AND st = :s";
        assertThat(eval(expr, "{':v':{'N':'5'},':s':{'S':'READY'}}")).isTrue();
        assertThat(eval(expr, "{':v':{'N':'6'},':s':{'S':'READY'}}")).isFalse();
        assertThat(eval(expr, "{':v':{'N':'5'},':s':{'S':'DONE'}}")).isFalse();
        // a repeated syntax error is reported every time (errors are never cached)
        for (int i = 0; i < 2; i++) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> eval("qty = :v ;", null))
                    .hasMessageContaining("Syntax error");
        }
    }

    @Test
    void functionsAndNestedPaths() {
        assertThat(eval("doc.l[1].x = :d", "{':d':{'S':'deep'}}")).isTrue();
        assertThat(eval("attribute_exists(doc.l[0])", null)).isTrue();
        assertThat(eval("attribute_not_exists(doc.l[2])", null)).isTrue();
        assertThat(
                        eval(
                                "size(doc.l) = :two AND size(st) = :five",
                                "{':two':{'N':'2'},':five':{'N':'5'}}"))
                .isTrue();
        assertThat(eval("begins_with(bin, :p)", "{':p':{'B':'AQ=='}}")).isTrue();
        assertThat(eval("contains(st, :s)", "{':s':{'S':'EAD'}}")).isTrue();
        assertThat(eval("attribute_type(tags, :ss)", "{':ss':{'S':'SS'}}")).isTrue();
        assertThat(eval("qty BETWEEN :a AND :b", "{':a':{'N':'5'},':b':{'N':'5.0'}}")).isTrue();
        assertThat(eval("st IN (:a, :b)", "{':a':{'S':'X'},':b':{'S':'READY'}}")).isTrue();
        assertThat(eval("qty < :s", "{':s':{'S':'9'}}")).isFalse(); // different types never order
    }

    @Test
    void errorsAreValidationExceptions() {
        assertThatThrownBy(() -> eval("qty BETWEEN :b AND :a", "{':a':{'N':'1'},':b':{'N':'9'}}"))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("BETWEEN");
        assertThatThrownBy(() -> eval("nosuch(qty)", null))
                .hasMessageContaining("Invalid function name");
        assertThatThrownBy(() -> eval("qty = :v AND", "{':v':{'N':'1'}}"))
                .hasMessageContaining("Syntax error");
        assertThatThrownBy(() -> eval("Size = :v", "{':v':{'N':'1'}}"))
                .hasMessageContaining("reserved keyword: Size");
        assertThatThrownBy(() -> eval("attribute_exists(#n)", null))
                .hasMessageContaining("attribute name: #n");
        assertThatThrownBy(() -> eval("attribute_exists(qty)", "{':x':{'N':'1'}}"))
                .hasMessageContaining("unused");
        assertThatThrownBy(() -> eval("attribute_type(qty, :t)", "{':t':{'S':'NUMBER'}}"))
                .hasMessageContaining("Invalid attribute type name");
    }

    private static ObjectNode update(String expr, String values) {
        ExpressionContext ctx = new ExpressionContext(null, values == null ? null : json(values));
        List<Ast.UpdateAction> actions = Parser.update(expr, ctx);
        ctx.checkAllUsed();
        Updater.validate(actions, Set.of("PK"));
        return Updater.apply(actions, ITEM, (ObjectNode) json("{'PK':{'S':'o1'}}"));
    }

    @Test
    void updatesReadTheOldItemAndNeverMutateIt() {
        ObjectNode u =
                update(
                        "SET qty = qty - :one, prev = qty, doc.l[5] = :one, doc.n = :one REMOVE st, doc.l[0]",
                        "{':one':{'N':'1'}}");
        assertThat(u.get("qty").get("N").asText()).isEqualTo("4");
        assertThat(u.get("prev").get("N").asText()).isEqualTo("5");
        assertThat(u.has("st")).isFalse();
        // l[5] past the end appends; l[0] removal shifts
        assertThat(u.get("doc").get("M").get("l").get("L")).hasSize(2);
        assertThat(u.get("doc").get("M").get("n").get("N").asText()).isEqualTo("1");
        assertThat(ITEM.get("qty").get("N").asText()).isEqualTo("5");
        assertThat(ITEM.has("st")).isTrue();
    }

    @Test
    void addAndDeleteOnSets() {
        ObjectNode u =
                update(
                        "ADD tags :c, qty :n DELETE nothing :a",
                        "{':c':{'SS':['c','a']},':n':{'N':'-5'},':a':{'SS':['a']}}");
        assertThat(u.get("tags").get("SS")).hasSize(3);
        assertThat(u.get("qty").get("N").asText()).isEqualTo("0");
        ObjectNode d = update("DELETE tags :ab", "{':ab':{'SS':['a','b']}}");
        assertThat(d.has("tags")).isFalse(); // an emptied set disappears
    }

    @Test
    void updateValidation() {
        assertThatThrownBy(() -> update("SET PK = :v", "{':v':{'S':'x'}}"))
                .hasMessageContaining("part of the key");
        assertThatThrownBy(() -> update("SET doc.l = :v REMOVE doc", "{':v':{'S':'x'}}"))
                .hasMessageContaining("overlap");
        assertThatThrownBy(() -> update("SET a = :v SET b = :v", "{':v':{'S':'x'}}"))
                .hasMessageContaining("only be used once");
        assertThatThrownBy(() -> update("ADD st :v", "{':v':{'S':'x'}}"))
                .hasMessageContaining("operator: ADD");
        assertThatThrownBy(() -> update("SET qty = list_append(qty, :v)", "{':v':{'L':[]}}"))
                .hasMessageContaining("list_append");
    }

    @Test
    void projectionKeepsNestingAndCompactsLists() {
        ExpressionContext ctx = new ExpressionContext(null, null);
        ObjectNode p = Projector.project(ITEM, Parser.projection("qty, doc.l[1].x, absent", ctx));
        assertThat(p.toString())
                .isEqualTo(
                        "{\"qty\":{\"N\":\"5\"},\"doc\":{\"M\":{\"l\":{\"L\":[{\"M\":{\"x\":{\"S\":\"deep\"}}}]}}}}");
    }
}
