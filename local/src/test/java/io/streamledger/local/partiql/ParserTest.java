package io.streamledger.local.partiql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.partiql.Syntax.Insert;
import io.streamledger.local.partiql.Syntax.Parsed;
import io.streamledger.local.partiql.Syntax.Select;
import io.streamledger.local.partiql.Syntax.Update;
import io.streamledger.local.spi.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The PartiQL grammar DynamoDB accepts (AP16/AP17 statements of the sinks): parameters numbered in
 * order, comments, quoted names, RETURNING as UpdateItem's ReturnValues, and the translation of
 * WHERE clauses into the engine's expression language with every name and constant a placeholder.
 */
class ParserTest {

    private static ApiException refused(String statement) {
        try {
            Parser.parse(statement);
        } catch (ApiException e) {
            return e;
        }
        throw new AssertionError("accepted: " + statement);
    }

    @Test
    void parametersAreNumberedInOrderOfAppearance() {
        Parsed p =
                Parser.parse(
                        "update \"T\" set a = ?, b = b + ? -- comment\n"
                                + " where PK = ? /* block */ and SK = ? and v = ?;");
        assertThat(p.parameters()).isEqualTo(5);
        Update u = (Update) p.statement();
        assertThat(u.table()).isEqualTo("T");
        assertThat(u.actions()).hasSize(2);
        assertThat(u.returnValues()).isNull();
        assertThat(
                        ((Update)
                                        Parser.parse(
                                                        "UPDATE T SET a = 1 WHERE PK = 'x' RETURNING MODIFIED OLD *")
                                                .statement())
                                .returnValues())
                .isEqualTo("UPDATED_OLD");
    }

    @Test
    void whereClausesBecomeEngineExpressionsWithPlaceholders() {
        Select s =
                (Select)
                        Parser.parse(
                                        "SELECT * FROM t WHERE (a != 1 OR NOT b IN [1, 2]) AND c IS"
                                                + " NOT MISSING AND d IS NULL AND size(e) > 3 AND"
                                                + " contains(\"f g\".h[2], 'x') AND \"select\" BETWEEN"
                                                + " ? AND ?")
                                .statement();
        ExpressionWriter w = new ExpressionWriter();
        assertThat(w.condition(s.where()))
                .isEqualTo(
                        "(#n0 <> :v0 OR NOT #n1 IN (:v1, :v2)) AND attribute_exists(#n2) AND"
                                + " attribute_type(#n3, :v3) AND size(#n4) > :v4 AND contains(#n5.#n6[2],"
                                + " :v5) AND #n7 BETWEEN :v6 AND :v7");
        assertThat(w.names().toString())
                .isEqualTo(
                        "{\"#n0\":\"a\",\"#n1\":\"b\",\"#n2\":\"c\",\"#n3\":\"d\",\"#n4\":\"e\","
                                + "\"#n5\":\"f g\",\"#n6\":\"h\",\"#n7\":\"select\"}");
    }

    @Test
    void updatesTranslateSetFunctionsToAddAndDelete() {
        Update u =
                (Update)
                        Parser.parse(
                                        "UPDATE t SET s = set_add(s, <<'a'>>) SET n = set_delete(n,"
                                                + " <<1, 2>>) SET l = list_append(l, [1]) REMOVE"
                                                + " m.k, l[3] WHERE PK = 'x'")
                                .statement();
        assertThat(new ExpressionWriter().update(u.actions()))
                .isEqualTo(
                        "SET #n2 = list_append(#n2, :v2) REMOVE #n3.#n4, #n2[3] ADD #n0 :v0"
                                + " DELETE #n1 :v1");
    }

    @Test
    void literalsAreWireValues() {
        Insert i =
                (Insert)
                        Parser.parse(
                                        "INSERT INTO t VALUE {'n': 1.50, 'neg': -2e3, 's': 'it''s',"
                                                + " 'b': TRUE, 'z': NULL, 'ns': <<1, 1.0>>}")
                                .statement();
        assertThat(((Syntax.Literal) i.item().entries().get(0).value()).value().toString())
                .isEqualTo("{\"N\":\"1.5\"}");
        assertThat(((Syntax.Literal) i.item().entries().get(1).value()).value().toString())
                .isEqualTo("{\"N\":\"-2000\"}");
        assertThat(((Syntax.Literal) i.item().entries().get(2).value()).value().toString())
                .isEqualTo("{\"S\":\"it's\"}");
        assertThatThrownBy(() -> Binder.of(null, 0).item(i.item()))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("contains duplicates");
    }

    @Test
    void refusalsCarryDynamoDbsMessages() {
        assertThat(refused("SELECT * FROM t; SELECT * FROM u").getMessage())
                .isEqualTo(
                        "Statement wasn't well formed, can't be processed: SELECT * FROM t; SELECT * FROM u");
        assertThat(refused("SELECT * FROM t WHERE pad = 1").getMessage())
                .startsWith("Statement wasn't well formed");
        assertThat(refused("SELECT a FROM t LIMIT 5").getMessage())
                .isEqualTo("Unsupported clause: LIMIT at 1:23:1");
        assertThat(refused("SELECT * FROM t, u").getMessage())
                .isEqualTo("Only select from a single table or index is supported.");
        assertThat(refused("SELECT *, a FROM t").getMessage())
                .isEqualTo(
                        "Other attributes should not be present in the projection when '*' is used.");
        assertThat(refused("SELECT count(*) FROM t").getMessage())
                .isEqualTo("Unrecognized function: count");
        assertThat(refused("INSERT INTO t VALUE {'a': <<?>>}").getMessage())
                .isEqualTo(
                        "Unsupported data type in Bag. DynamoDB only supports either numbers or"
                                + " strings in bags");
        assertThat(refused("UPDATE t SET a = 1 WHERE a IS MISSING AND b = MISSING").getMessage())
                .isEqualTo("MISSING must be compared using IS operator");
        assertThat(refused("UPDATE t SET a = 1 WHERE PK = 'x' RETURNING ALL OLD").getMessage())
                .isEqualTo(
                        "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
        for (String s :
                List.of("", "   ", "-- only a comment", "SELECT * FROM 't'", "DROP TABLE t")) {
            assertThat(refused(s).getMessage()).startsWith("Statement wasn't well formed");
        }
    }
}
