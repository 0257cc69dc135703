package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Abstract syntax of the PartiQL subset DynamoDB runs: one SELECT, INSERT, UPDATE or DELETE per
 * statement, or EXISTS(SELECT …) inside a transaction. Statements are immutable and shared by every
 * execution of the same text (the Flink sinks repeat one UPDATE with new parameters, AP16/AP17).
 */
final class Syntax {
    private Syntax() {}

    // ------------------------------------------------------------------ values

    /** A value expression: a path, a literal, a {@code ?} parameter or a constructor of them. */
    sealed interface Expr
            permits PathExpr, Literal, Param, Tuple, ListExpr, Bag, Call, Arith, Size {}

    /**
     * A document path; steps are {@link String} (attribute or map key) or {@link Integer} (list
     * index).
     */
    record PathExpr(List<Object> steps) implements Expr {
        String top() {
            return (String) steps.get(0);
        }

        boolean isTopLevel() {
            return steps.size() == 1;
        }

        /** The name of a projected path in a SELECT result: its last name and what follows it. */
        String resultName() {
            int last = 0;
            for (int i = 0; i < steps.size(); i++) {
                if (steps.get(i) instanceof String) {
                    last = i;
                }
            }
            StringBuilder sb = new StringBuilder((String) steps.get(last));
            for (int i = last + 1; i < steps.size(); i++) {
                sb.append('[').append(steps.get(i)).append(']');
            }
            return sb.toString();
        }
    }

    /** A literal, already in DynamoDB's wire form ({@code {"S":"x"}}). */
    record Literal(JsonNode value) implements Expr {}

    /** The {@code index}-th {@code ?} of the statement (0-based). */
    record Param(int index) implements Expr {}

    /** {@code {'k': v, …}}: a map (M). */
    record Tuple(List<Entry> entries) implements Expr {}

    record Entry(String key, Expr value) {}

    /** {@code [a, b]}: a list (L). */
    record ListExpr(List<Expr> elements) implements Expr {}

    /** {@code <<a, b>>}: a string or number set. */
    record Bag(List<Expr> elements) implements Expr {}

    /** A function of an update's SET value: list_append, set_add, set_delete. */
    record Call(String name, List<Expr> args) implements Expr {}

    /** {@code a + b} or {@code a - b} in a SET value. */
    record Arith(char op, Expr left, Expr right) implements Expr {}

    /** {@code size(path)} as an operand of a condition. */
    record Size(PathExpr path) implements Expr {}

    // ------------------------------------------------------------------ conditions

    sealed interface Cond permits Cmp, Between, In, And, Or, Not, Is, Fn {}

    /** A comparison; {@code op} is one of = <> < <= > >= ({@code !=} is read as {@code <>}). */
    record Cmp(String op, Expr left, Expr right) implements Cond {}

    record Between(Expr value, Expr low, Expr high) implements Cond {}

    record In(Expr value, List<Expr> candidates) implements Cond {}

    record And(Cond left, Cond right) implements Cond {}

    record Or(Cond left, Cond right) implements Cond {}

    record Not(Cond inner) implements Cond {}

    /** {@code path IS [NOT] type}, type upper-case (MISSING, NULL, STRING, …). */
    record Is(PathExpr path, String type, boolean negated) implements Cond {}

    /** begins_with, contains, attribute_type, attribute_exists, attribute_not_exists. */
    record Fn(String name, List<Expr> args) implements Cond {}

    // ------------------------------------------------------------------ statements

    sealed interface Statement permits Select, Insert, Update, Delete, Exists {
        String table();

        /** True for statements that write (and EXISTS, which belongs to write transactions). */
        default boolean writes() {
            return !(this instanceof Select);
        }
    }

    record OrderKey(String attribute, boolean descending) {}

    /** {@code projection} null = {@code *}. */
    record Select(
            @Nullable List<PathExpr> projection,
            String table,
            @Nullable String index,
            @Nullable Cond where,
            List<OrderKey> orderBy)
            implements Statement {}

    record Insert(String table, Tuple item) implements Statement {}

    /** One SET or REMOVE of an UPDATE, in statement order. */
    sealed interface Action permits SetAction, RemoveAction {
        PathExpr path();
    }

    record SetAction(PathExpr path, Expr value) implements Action {}

    record RemoveAction(PathExpr path) implements Action {}

    /** {@code returnValues} is UpdateItem's ReturnValues for the RETURNING clause, or null. */
    record Update(String table, List<Action> actions, Cond where, @Nullable String returnValues)
            implements Statement {}

    record Delete(String table, Cond where, boolean returnOld) implements Statement {}

    /** {@code EXISTS(SELECT …)}: a ConditionCheck of a write transaction. */
    record Exists(Select select) implements Statement {
        @Override
        public String table() {
            return select.table();
        }
    }

    /** A parsed statement and the number of {@code ?} it holds. */
    record Parsed(Statement statement, int parameters) {}
}
