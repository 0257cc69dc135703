package io.streamledger.local.dynamodb.expr;

import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.expr.Ast.AddAction;
import io.streamledger.local.dynamodb.expr.Ast.And;
import io.streamledger.local.dynamodb.expr.Ast.Arithmetic;
import io.streamledger.local.dynamodb.expr.Ast.Between;
import io.streamledger.local.dynamodb.expr.Ast.Comparator;
import io.streamledger.local.dynamodb.expr.Ast.Comparison;
import io.streamledger.local.dynamodb.expr.Ast.Condition;
import io.streamledger.local.dynamodb.expr.Ast.DeleteAction;
import io.streamledger.local.dynamodb.expr.Ast.FunctionCall;
import io.streamledger.local.dynamodb.expr.Ast.IfNotExists;
import io.streamledger.local.dynamodb.expr.Ast.In;
import io.streamledger.local.dynamodb.expr.Ast.ListAppend;
import io.streamledger.local.dynamodb.expr.Ast.Not;
import io.streamledger.local.dynamodb.expr.Ast.Operand;
import io.streamledger.local.dynamodb.expr.Ast.Or;
import io.streamledger.local.dynamodb.expr.Ast.PathOperand;
import io.streamledger.local.dynamodb.expr.Ast.RemoveAction;
import io.streamledger.local.dynamodb.expr.Ast.SetAction;
import io.streamledger.local.dynamodb.expr.Ast.SizeOperand;
import io.streamledger.local.dynamodb.expr.Ast.UpdateAction;
import io.streamledger.local.dynamodb.expr.Ast.ValueOperand;
import io.streamledger.local.dynamodb.expr.ExpressionContext.ExpressionException;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Recursive-descent parser (AP08/AP16/AP17 guards) for DynamoDB's expression grammar; substitutes
 * {@code #names} and {@code :values} from the request's {@link ExpressionContext} and rejects bare
 * reserved words.
 */
public final class Parser {
    private static final Set<String> CONDITION_FUNCTIONS =
            Set.of(
                    "attribute_exists",
                    "attribute_not_exists",
                    "attribute_type",
                    "begins_with",
                    "contains");

    private enum Kind {
        IDENT,
        NAME,
        VALUE,
        NUMBER,
        PUNCT,
        END
    }

    private record Token(Kind kind, String text, int pos) {}

    private final String kindLabel;
    private final String text;
    private final ExpressionContext ctx;
    private final List<Token> tokens;
    private int p;

    /** Conditions already wrapped in parentheses: wrapping one again is redundant. */
    private final Map<Condition, Boolean> parenthesized = new java.util.IdentityHashMap<>();

    private Parser(String kindLabel, String text, ExpressionContext ctx) {
        this.kindLabel = kindLabel;
        this.text = text;
        this.ctx = ctx;
        this.tokens = tokens(text);
    }

    /**
     * Tokens of expressions already seen: clients send the same few expression strings again and
     * again (a job's UpdateItem, a transaction's conditions), and lexing was ≈ 20 % of the
     * endpoint's CPU in a profiled pipeline run. Tokens do not depend on the names/values maps.
     * Bounded: cleared when full.
     */
    private static final int TOKEN_CACHE_MAX = 4096;

    private static final Map<String, List<Token>> TOKEN_CACHE = new ConcurrentHashMap<>();

    private static List<Token> tokens(String text) {
        List<Token> cached = TOKEN_CACHE.get(text);
        if (cached != null) {
            return cached;
        }
        List<Token> lexed = List.copyOf(lex(text)); // a syntax error throws and is not cached
        if (TOKEN_CACHE.size() >= TOKEN_CACHE_MAX) {
            TOKEN_CACHE.clear();
        }
        TOKEN_CACHE.put(text, lexed);
        return lexed;
    }

    /** Parses a ConditionExpression / FilterExpression / KeyConditionExpression. */
    public static Condition condition(String label, String text, ExpressionContext ctx) {
        Parser parser = new Parser(label, text, ctx);
        return parser.run(
                () -> {
                    Condition c = parser.orCondition();
                    parser.expectEnd();
                    return c;
                });
    }

    /** Parses an UpdateExpression into its actions in clause order. */
    public static List<UpdateAction> update(String text, ExpressionContext ctx) {
        Parser parser = new Parser("UpdateExpression", text, ctx);
        return parser.run(parser::updateActions);
    }

    /** Parses a ProjectionExpression. */
    public static List<Path> projection(String text, ExpressionContext ctx) {
        Parser parser = new Parser("ProjectionExpression", text, ctx);
        return parser.run(
                () -> {
                    List<Path> paths = new ArrayList<>();
                    paths.add(parser.path());
                    while (parser.acceptPunct(",")) {
                        paths.add(parser.path());
                    }
                    parser.expectEnd();
                    checkNoOverlap(paths);
                    return paths;
                });
    }

    /** A projection may not name a path and a path inside it (or the same path twice). */
    private static void checkNoOverlap(List<Path> paths) {
        for (int i = 0; i < paths.size(); i++) {
            for (int j = i + 1; j < paths.size(); j++) {
                if (paths.get(i).overlaps(paths.get(j))) {
                    throw new ExpressionException(
                            "Two document paths overlap with each other; must remove or rewrite"
                                    + " one of these paths; path one: "
                                    + Updater.render(paths.get(i))
                                    + ", path two: "
                                    + Updater.render(paths.get(j)));
                }
            }
        }
    }

    private interface Body<T> {
        T parse();
    }

    private <T> T run(Body<T> body) {
        if (text.isBlank()) {
            throw ApiException.validation(
                    "Invalid " + kindLabel + ": The expression can not be empty;");
        }
        try {
            return body.parse();
        } catch (ExpressionException e) {
            throw ApiException.validation("Invalid " + kindLabel + ": " + e.getMessage());
        }
    }

    // ---------------------------------------------------------------- lexer

    private static List<Token> lex(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            if (c == '#' || c == ':') {
                i++;
                while (i < s.length() && isIdentPart(s.charAt(i))) {
                    i++;
                }
                out.add(new Token(c == '#' ? Kind.NAME : Kind.VALUE, s.substring(start, i), start));
            } else if (Character.isLetter(c) || c == '_') {
                while (i < s.length() && isIdentPart(s.charAt(i))) {
                    i++;
                }
                out.add(new Token(Kind.IDENT, s.substring(start, i), start));
            } else if (Character.isDigit(c)) {
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                out.add(new Token(Kind.NUMBER, s.substring(start, i), start));
            } else if (c == '<'
                    && i + 1 < s.length()
                    && (s.charAt(i + 1) == '=' || s.charAt(i + 1) == '>')) {
                out.add(new Token(Kind.PUNCT, s.substring(i, i + 2), start));
                i += 2;
            } else if (c == '>' && i + 1 < s.length() && s.charAt(i + 1) == '=') {
                out.add(new Token(Kind.PUNCT, ">=", start));
                i += 2;
            } else if ("()[],.=<>+-".indexOf(c) >= 0) {
                out.add(new Token(Kind.PUNCT, String.valueOf(c), start));
                i++;
            } else {
                throw ApiException.validation(
                        "Invalid expression: Syntax error; token: \""
                                + c
                                + "\", near: \""
                                + c
                                + "\"");
            }
        }
        out.add(new Token(Kind.END, "<EOF>", s.length()));
        return out;
    }

    private static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    // ---------------------------------------------------------------- helpers

    private Token peek() {
        return tokens.get(p);
    }

    private Token next() {
        return tokens.get(p++);
    }

    private boolean acceptPunct(String s) {
        Token t = peek();
        if (t.kind == Kind.PUNCT && t.text.equals(s)) {
            p++;
            return true;
        }
        return false;
    }

    private boolean acceptKeyword(String kw) {
        Token t = peek();
        if (t.kind == Kind.IDENT && t.text.equalsIgnoreCase(kw)) {
            p++;
            return true;
        }
        return false;
    }

    private boolean peekKeyword(String kw) {
        Token t = peek();
        return t.kind == Kind.IDENT && t.text.equalsIgnoreCase(kw);
    }

    private void expectPunct(String s) {
        if (!acceptPunct(s)) {
            throw syntax(peek());
        }
    }

    private void expectEnd() {
        if (peek().kind != Kind.END) {
            throw syntax(peek());
        }
    }

    private ExpressionException syntax(Token t) {
        int from = Math.max(0, t.pos - 10);
        int to = Math.min(text.length(), t.pos + t.text.length() + 10);
        return new ExpressionException(
                "Syntax error; token: \""
                        + t.text
                        + "\", near: \""
                        + text.substring(from, to).trim()
                        + "\"");
    }

    // ---------------------------------------------------------------- conditions

    private Condition orCondition() {
        Condition left = andCondition();
        while (acceptKeyword("OR")) {
            left = new Or(left, andCondition());
        }
        return left;
    }

    private Condition andCondition() {
        Condition left = notCondition();
        while (acceptKeyword("AND")) {
            left = new And(left, notCondition());
        }
        return left;
    }

    private Condition notCondition() {
        if (acceptKeyword("NOT")) {
            return new Not(notCondition());
        }
        return predicate();
    }

    private Condition predicate() {
        if (acceptPunct("(")) {
            Condition inner = orCondition();
            expectPunct(")");
            if (parenthesized.containsKey(inner)) {
                throw new ExpressionException("The expression has redundant parentheses;");
            }
            parenthesized.put(inner, Boolean.TRUE);
            return inner;
        }
        Token t = peek();
        if (t.kind == Kind.IDENT
                && tokens.get(p + 1).kind == Kind.PUNCT
                && tokens.get(p + 1).text.equals("(")) {
            String fn = t.text;
            if (CONDITION_FUNCTIONS.contains(fn)) {
                p += 2;
                List<Operand> args = arguments();
                checkFunctionArgs(fn, args);
                return new FunctionCall(fn, args);
            }
            if (!fn.equals("size")) {
                throw new ExpressionException("Invalid function name; function: " + fn);
            }
        }
        Operand left = operand();
        Token op = peek();
        if (op.kind == Kind.PUNCT) {
            Comparator cmp =
                    switch (op.text) {
                        case "=" -> Comparator.EQ;
                        case "<>" -> Comparator.NE;
                        case "<" -> Comparator.LT;
                        case "<=" -> Comparator.LE;
                        case ">" -> Comparator.GT;
                        case ">=" -> Comparator.GE;
                        default -> throw syntax(op);
                    };
            p++;
            Operand right = operand();
            if (cmp != Comparator.EQ && cmp != Comparator.NE) {
                checkOrderable(cmp.symbol, left);
                checkOrderable(cmp.symbol, right);
            }
            return new Comparison(cmp, left, right);
        }
        if (acceptKeyword("BETWEEN")) {
            Operand low = operand();
            if (!acceptKeyword("AND")) {
                throw syntax(peek());
            }
            Operand high = operand();
            checkOrderable("BETWEEN", left);
            checkOrderable("BETWEEN", low);
            checkOrderable("BETWEEN", high);
            return new Between(left, low, high);
        }
        if (acceptKeyword("IN")) {
            expectPunct("(");
            List<Operand> candidates = new ArrayList<>();
            candidates.add(operand());
            while (acceptPunct(",")) {
                candidates.add(operand());
            }
            expectPunct(")");
            if (candidates.size() > 100) {
                throw new ExpressionException(
                        "The IN operator is provided with too many operands; number of operands: "
                                + candidates.size());
            }
            return new In(left, candidates);
        }
        throw syntax(op);
    }

    private List<Operand> arguments() {
        List<Operand> args = new ArrayList<>();
        if (!acceptPunct(")")) {
            args.add(operand());
            while (acceptPunct(",")) {
                args.add(operand());
            }
            expectPunct(")");
        }
        return args;
    }

    private void checkFunctionArgs(String fn, List<Operand> args) {
        int expected = fn.startsWith("attribute_exists") || fn.startsWith("attribute_not") ? 1 : 2;
        if (args.size() != expected) {
            throw new ExpressionException(
                    "Incorrect number of operands for operator or function; operator or function: "
                            + fn
                            + ", number of operands: "
                            + args.size());
        }
        if (!(args.get(0) instanceof PathOperand)) {
            throw new ExpressionException(
                    "Operator or function requires a document path; operator or function: " + fn);
        }
        if (fn.equals("begins_with") && args.get(1) instanceof ValueOperand v) {
            String type = AttributeValues.type(v.value());
            if (!type.equals("S") && !type.equals("B")) {
                throw incorrectOperandType(fn, type);
            }
        }
    }

    /** Ordering operators take only S, N or B constants (a path's type is known only later). */
    private static void checkOrderable(String operator, Operand o) {
        if (o instanceof ValueOperand v) {
            String type = AttributeValues.type(v.value());
            if (!type.equals("S") && !type.equals("N") && !type.equals("B")) {
                throw incorrectOperandType(operator, type);
            }
        }
    }

    private static ExpressionException incorrectOperandType(String operator, String type) {
        return new ExpressionException(
                "Incorrect operand type for operator or function; operator or function: "
                        + operator
                        + ", operand type: "
                        + type);
    }

    /** Operand of a condition: path, :value or size(path). */
    private Operand operand() {
        Token t = peek();
        if (t.kind == Kind.VALUE) {
            p++;
            return new ValueOperand(t.text, ctx.value(t.text));
        }
        if (t.kind == Kind.IDENT && t.text.equals("size") && tokens.get(p + 1).text.equals("(")) {
            p += 2;
            List<Operand> args = arguments();
            if (args.size() != 1 || !(args.get(0) instanceof PathOperand po)) {
                throw new ExpressionException(
                        "Incorrect number of operands for operator or function; operator or"
                                + " function: size, number of operands: "
                                + args.size());
            }
            return new SizeOperand(po.path());
        }
        if (t.kind == Kind.IDENT && tokens.get(p + 1).text.equals("(")) {
            throw new ExpressionException(
                    "The function is not allowed to be used this way in an expression; function: "
                            + t.text);
        }
        return new PathOperand(path());
    }

    // ---------------------------------------------------------------- paths

    private Path path() {
        List<Object> elements = new ArrayList<>();
        elements.add(pathName());
        while (true) {
            if (acceptPunct(".")) {
                elements.add(pathName());
            } else if (acceptPunct("[")) {
                Token n = next();
                if (n.kind != Kind.NUMBER) {
                    throw syntax(n);
                }
                elements.add(Integer.parseInt(n.text));
                expectPunct("]");
            } else {
                return new Path(List.copyOf(elements));
            }
        }
    }

    private String pathName() {
        Token t = next();
        if (t.kind == Kind.NAME) {
            return ctx.name(t.text);
        }
        if (t.kind == Kind.IDENT) {
            if (ReservedWords.isReserved(t.text)) {
                throw new ExpressionException(
                        "Attribute name is a reserved keyword; reserved keyword: " + t.text);
            }
            return t.text;
        }
        throw syntax(t);
    }

    // ---------------------------------------------------------------- updates

    private List<UpdateAction> updateActions() {
        List<UpdateAction> actions = new ArrayList<>();
        Set<String> seenClauses = new java.util.HashSet<>();
        while (peek().kind != Kind.END) {
            Token clause = next();
            String kw = clause.text.toUpperCase(Locale.ROOT);
            if (clause.kind != Kind.IDENT
                    || !Set.of("SET", "REMOVE", "ADD", "DELETE").contains(kw)) {
                throw syntax(clause);
            }
            if (!seenClauses.add(kw)) {
                throw new ExpressionException(
                        "The \""
                                + kw
                                + "\" section can only be used once in an update expression;");
            }
            do {
                actions.add(updateAction(kw));
            } while (acceptPunct(","));
        }
        return actions;
    }

    private UpdateAction updateAction(String clause) {
        Path path = path();
        switch (clause) {
            case "SET":
                expectPunct("=");
                return new SetAction(path, setValue());
            case "REMOVE":
                return new RemoveAction(path);
            case "ADD":
                return new AddAction(path, valueOperand());
            default:
                return new DeleteAction(path, valueOperand());
        }
    }

    private ValueOperand valueOperand() {
        Token t = next();
        if (t.kind != Kind.VALUE) {
            throw syntax(t);
        }
        return new ValueOperand(t.text, ctx.value(t.text));
    }

    private Operand setValue() {
        Operand left = setOperand();
        if (acceptPunct("+")) {
            return new Arithmetic(left, '+', setOperand());
        }
        if (acceptPunct("-")) {
            return new Arithmetic(left, '-', setOperand());
        }
        return left;
    }

    private Operand setOperand() {
        Token t = peek();
        if (t.kind == Kind.VALUE) {
            p++;
            return new ValueOperand(t.text, ctx.value(t.text));
        }
        if (t.kind == Kind.IDENT && tokens.get(p + 1).text.equals("(")) {
            p += 2;
            if (t.text.equals("if_not_exists")) {
                Path path = path();
                expectPunct(",");
                Operand fallback = setOperand();
                expectPunct(")");
                return new IfNotExists(path, fallback);
            }
            if (t.text.equals("list_append")) {
                Operand a = setOperand();
                expectPunct(",");
                Operand b = setOperand();
                expectPunct(")");
                return new ListAppend(a, b);
            }
            throw new ExpressionException("Invalid function name; function: " + t.text);
        }
        if (acceptPunct("(")) {
            Operand inner = setValue();
            expectPunct(")");
            return inner;
        }
        return new PathOperand(path());
    }
}
