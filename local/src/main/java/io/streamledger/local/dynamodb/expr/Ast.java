package io.streamledger.local.dynamodb.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Abstract syntax of DynamoDB condition, key-condition, filter, update and projection expressions
 * (the guards of AP08/AP16/AP17 conditional writes).
 */
public final class Ast {
    private Ast() {}

    /** Something that evaluates to an attribute value (or to nothing). */
    public sealed interface Operand
            permits PathOperand, ValueOperand, SizeOperand, Arithmetic, IfNotExists, ListAppend {}

    public record PathOperand(Path path) implements Operand {}

    public record ValueOperand(String placeholder, JsonNode value) implements Operand {}

    public record SizeOperand(Path path) implements Operand {}

    public record Arithmetic(Operand left, char op, Operand right) implements Operand {}

    public record IfNotExists(Path path, Operand fallback) implements Operand {}

    public record ListAppend(Operand first, Operand second) implements Operand {}

    /** A boolean condition. */
    public sealed interface Condition permits Comparison, Between, In, And, Or, Not, FunctionCall {}

    public enum Comparator {
        EQ("="),
        NE("<>"),
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">=");

        public final String symbol;

        Comparator(String symbol) {
            this.symbol = symbol;
        }
    }

    public record Comparison(Comparator op, Operand left, Operand right) implements Condition {}

    public record Between(Operand value, Operand low, Operand high) implements Condition {}

    public record In(Operand value, List<Operand> candidates) implements Condition {}

    public record And(Condition left, Condition right) implements Condition {}

    public record Or(Condition left, Condition right) implements Condition {}

    public record Not(Condition inner) implements Condition {}

    /** attribute_exists, attribute_not_exists, attribute_type, begins_with, contains. */
    public record FunctionCall(String name, List<Operand> args) implements Condition {}

    /** One clause action of an update expression. */
    public sealed interface UpdateAction permits SetAction, RemoveAction, AddAction, DeleteAction {
        Path path();
    }

    public record SetAction(Path path, Operand value) implements UpdateAction {}

    public record RemoveAction(Path path) implements UpdateAction {}

    public record AddAction(Path path, ValueOperand value) implements UpdateAction {}

    public record DeleteAction(Path path, ValueOperand value) implements UpdateAction {}
}
