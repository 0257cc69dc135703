package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.Numbers;
import io.streamledger.local.partiql.Lexer.Kind;
import io.streamledger.local.partiql.Lexer.Token;
import io.streamledger.local.partiql.Syntax.Action;
import io.streamledger.local.partiql.Syntax.And;
import io.streamledger.local.partiql.Syntax.Arith;
import io.streamledger.local.partiql.Syntax.Bag;
import io.streamledger.local.partiql.Syntax.Between;
import io.streamledger.local.partiql.Syntax.Call;
import io.streamledger.local.partiql.Syntax.Cmp;
import io.streamledger.local.partiql.Syntax.Cond;
import io.streamledger.local.partiql.Syntax.Delete;
import io.streamledger.local.partiql.Syntax.Entry;
import io.streamledger.local.partiql.Syntax.Exists;
import io.streamledger.local.partiql.Syntax.Expr;
import io.streamledger.local.partiql.Syntax.Fn;
import io.streamledger.local.partiql.Syntax.In;
import io.streamledger.local.partiql.Syntax.Insert;
import io.streamledger.local.partiql.Syntax.Is;
import io.streamledger.local.partiql.Syntax.ListExpr;
import io.streamledger.local.partiql.Syntax.Literal;
import io.streamledger.local.partiql.Syntax.Not;
import io.streamledger.local.partiql.Syntax.Or;
import io.streamledger.local.partiql.Syntax.OrderKey;
import io.streamledger.local.partiql.Syntax.Param;
import io.streamledger.local.partiql.Syntax.Parsed;
import io.streamledger.local.partiql.Syntax.PathExpr;
import io.streamledger.local.partiql.Syntax.RemoveAction;
import io.streamledger.local.partiql.Syntax.Select;
import io.streamledger.local.partiql.Syntax.SetAction;
import io.streamledger.local.partiql.Syntax.Size;
import io.streamledger.local.partiql.Syntax.Statement;
import io.streamledger.local.partiql.Syntax.Tuple;
import io.streamledger.local.partiql.Syntax.Update;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Recursive-descent parser of DynamoDB's PartiQL subset (the conditional UPDATEs of the AP16/AP17
 * sinks, key reads of AP01–AP07): one statement per text, {@code ?} parameters numbered in order of
 * appearance, unsupported SQL refused with DynamoDB's messages.
 */
final class Parser {
    /** Words that cannot be bare names: SQL-92's reserved words and PartiQL's own. */
    private static final Set<String> RESERVED =
            Set.of(
                    ("ABSOLUTE ACTION ADD ALL ALLOCATE ALTER AND ANY ARE AS ASC ASSERTION AT"
                                    + " AUTHORIZATION AVG BEGIN BETWEEN BIT BIT_LENGTH BOTH BY"
                                    + " CASCADE CASCADED CASE CAST CATALOG CHAR CHARACTER"
                                    + " CHARACTER_LENGTH CHAR_LENGTH CHECK CLOSE COALESCE COLLATE"
                                    + " COLLATION COLUMN COMMIT CONNECT CONNECTION CONSTRAINT"
                                    + " CONSTRAINTS CONTINUE CONVERT CORRESPONDING COUNT CREATE CROSS"
                                    + " CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP"
                                    + " CURRENT_USER CURSOR DATE DAY DEALLOCATE DEC DECIMAL DECLARE"
                                    + " DEFAULT DEFERRABLE DEFERRED DELETE DESC DESCRIBE DESCRIPTOR"
                                    + " DIAGNOSTICS DISCONNECT DISTINCT DOMAIN DOUBLE DROP ELSE END"
                                    + " ESCAPE EXCEPT EXCEPTION EXEC EXECUTE EXISTS EXTERNAL EXTRACT"
                                    + " FALSE FETCH FIRST FLOAT FOR FOREIGN FOUND FROM FULL GET"
                                    + " GLOBAL GO GOTO GRANT GROUP HAVING HOUR IDENTITY IMMEDIATE IN"
                                    + " INDICATOR INITIALLY INNER INPUT INSENSITIVE INSERT INT"
                                    + " INTEGER INTERSECT INTERVAL INTO IS ISOLATION JOIN KEY"
                                    + " LANGUAGE LAST LEADING LEFT LEVEL LIKE LIMIT LOCAL LOWER MATCH"
                                    + " MAX MIN MINUTE MISSING MODULE MONTH NAMES NATIONAL NATURAL"
                                    + " NCHAR NEXT NO NOT NULL NULLIF NUMERIC OCTET_LENGTH OF OFFSET"
                                    + " ON ONLY OPEN OPTION OR ORDER OUTER OUTPUT OVERLAPS PAD PARTIAL"
                                    + " PIVOT POSITION PRECISION PREPARE PRESERVE PRIMARY PRIOR"
                                    + " PRIVILEGES PROCEDURE PUBLIC READ REAL REFERENCES RELATIVE"
                                    + " REMOVE RESTRICT RETURNING REVOKE RIGHT ROLLBACK ROWS SCHEMA"
                                    + " SCROLL SECOND SECTION SELECT SESSION SESSION_USER SET SIZE"
                                    + " SMALLINT SOME SPACE SQL SQLCODE SQLERROR SQLSTATE SUBSTRING"
                                    + " SUM SYSTEM_USER TABLE TEMPORARY THEN TIME TIMESTAMP"
                                    + " TIMEZONE_HOUR TIMEZONE_MINUTE TO TRAILING TRANSACTION"
                                    + " TRANSLATE TRANSLATION TRIM TRUE UNION UNIQUE UNKNOWN UNPIVOT"
                                    + " UPDATE UPPER USAGE USER USING VALUE VALUES VARCHAR VARYING"
                                    + " VIEW WHEN WHENEVER WHERE WITH WORK WRITE YEAR ZONE")
                            .split(" "));

    private static final Set<String> CONDITION_FUNCTIONS =
            Set.of(
                    "begins_with",
                    "contains",
                    "attribute_type",
                    "attribute_exists",
                    "attribute_not_exists");

    private static final Set<String> SET_FUNCTIONS = Set.of("list_append", "set_add", "set_delete");

    private final String text;
    private final List<Token> tokens;
    private int p;
    private int params;

    private Parser(String text) {
        this.text = text;
        this.tokens = Lexer.tokens(text);
    }

    /** Parses one statement; throws ValidationException with DynamoDB's message. */
    static Parsed parse(String text) {
        Parser parser = new Parser(text);
        Statement s = parser.statement();
        return new Parsed(s, parser.params);
    }

    // ------------------------------------------------------------------ statements

    private Statement statement() {
        Token first = peek();
        Statement s;
        if (first.isKeyword("SELECT")) {
            s = select();
        } else if (first.isKeyword("INSERT")) {
            s = insert();
        } else if (first.isKeyword("UPDATE")) {
            s = update();
        } else if (first.isKeyword("DELETE")) {
            s = delete();
        } else if (first.isKeyword("EXISTS")) {
            p++;
            expect("(");
            Select select = select();
            expect(")");
            s = new Exists(select);
        } else {
            throw malformed();
        }
        accept(";");
        if (peek().kind() != Kind.END) {
            throw malformed();
        }
        return s;
    }

    private Select select() {
        expectKeyword("SELECT");
        List<PathExpr> projection = null;
        if (accept("*")) {
            if (peek().is(",")) {
                throw Messages.validation(Messages.STAR_AND_OTHERS);
            }
        } else {
            projection = new ArrayList<>();
            do {
                if (accept("*")) {
                    throw Messages.validation(Messages.STAR_AND_OTHERS);
                }
                if (peek().kind() == Kind.IDENT && tokens.get(p + 1).is("(")) {
                    throw Messages.unrecognizedFunction(peek().text());
                }
                projection.add(path());
                if (peek().isKeyword("AS")
                        || (peek().kind() == Kind.QUOTED)
                        || (peek().kind() == Kind.IDENT && !isReserved(peek()))) {
                    throw Messages.validation(Messages.ALIAS);
                }
            } while (accept(","));
        }
        expectKeyword("FROM");
        String table = name();
        String index = null;
        if (accept(".")) {
            index = name();
            if (peek().is(".")) {
                throw malformed();
            }
        }
        if (peek().is(",") || peek().isKeyword("JOIN")) {
            throw Messages.validation(Messages.SINGLE_SOURCE);
        }
        if (peek().kind() == Kind.IDENT && !isReserved(peek())
                || peek().isKeyword("AS")
                || peek().kind() == Kind.QUOTED) {
            throw Messages.validation(Messages.ALIAS);
        }
        Cond where = null;
        if (acceptKeyword("WHERE")) {
            where = condition();
        }
        List<OrderKey> orderBy = new ArrayList<>();
        if (acceptKeyword("ORDER")) {
            expectKeyword("BY");
            do {
                String attr = name();
                boolean desc = false;
                if (acceptKeyword("DESC")) {
                    desc = true;
                } else {
                    acceptKeyword("ASC");
                }
                orderBy.add(new OrderKey(attr, desc));
            } while (accept(","));
        }
        for (String clause : List.of("LIMIT", "OFFSET")) {
            if (peek().isKeyword(clause)) {
                p++;
                throw Messages.unsupportedClause(clause, peek());
            }
        }
        return new Select(
                projection == null ? null : List.copyOf(projection),
                table,
                index,
                where,
                List.copyOf(orderBy));
    }

    private Insert insert() {
        expectKeyword("INSERT");
        expectKeyword("INTO");
        String table = name();
        if (peek().is(".")) {
            throw Messages.validation(Messages.NOT_ON_INDEX);
        }
        if (peek().isKeyword("VALUES") || peek().is("<<")) {
            throw Messages.validation(Messages.INSERT_MULTIPLE);
        }
        expectKeyword("VALUE");
        Expr item = constant();
        if (!(item instanceof Tuple tuple)) {
            throw Messages.validation(Messages.INSERT_NOT_TUPLE);
        }
        if (peek().isKeyword("RETURNING")) {
            throw Messages.validation(Messages.RETURNING_IN_INSERT);
        }
        return new Insert(table, tuple);
    }

    private Update update() {
        expectKeyword("UPDATE");
        String table = name();
        if (peek().is(".")) {
            throw Messages.validation(Messages.NOT_ON_INDEX);
        }
        List<Action> actions = new ArrayList<>();
        while (true) {
            if (acceptKeyword("SET")) {
                do {
                    PathExpr path = path();
                    expect("=");
                    actions.add(new SetAction(path, setValue()));
                } while (accept(","));
            } else if (acceptKeyword("REMOVE")) {
                do {
                    actions.add(new RemoveAction(path()));
                } while (accept(","));
            } else if (peek().isKeyword("ADD") || peek().isKeyword("DELETE")) {
                throw Messages.validation(Messages.ONLY_SET_AND_REMOVE);
            } else {
                break;
            }
        }
        if (actions.isEmpty()) {
            throw malformed();
        }
        if (!acceptKeyword("WHERE")) {
            if (peek().kind() == Kind.END || peek().is(";")) {
                throw Messages.validation(Messages.INCOMPLETE_KEY);
            }
            throw malformed();
        }
        Cond where = condition();
        String returnValues = null;
        if (acceptKeyword("RETURNING")) {
            returnValues = returning();
        }
        return new Update(table, List.copyOf(actions), where, returnValues);
    }

    private Delete delete() {
        expectKeyword("DELETE");
        expectKeyword("FROM");
        String table = name();
        if (peek().is(".")) {
            throw Messages.validation(Messages.NOT_ON_INDEX);
        }
        if (!acceptKeyword("WHERE")) {
            if (peek().kind() == Kind.END || peek().is(";")) {
                throw Messages.validation(Messages.INCOMPLETE_KEY);
            }
            throw malformed();
        }
        Cond where = condition();
        boolean returnOld = false;
        if (acceptKeyword("RETURNING")) {
            String rv = returning();
            if (!rv.equals("ALL_OLD")) {
                throw Messages.returningInDelete(
                        rv.replace("UPDATED", "MODIFIED").replace('_', ' ') + " *");
            }
            returnOld = true;
        }
        return new Delete(table, where, returnOld);
    }

    /** {@code (ALL | MODIFIED) (OLD | NEW) *} as UpdateItem's ReturnValues. */
    private String returning() {
        String which;
        if (acceptKeyword("ALL")) {
            which = "ALL";
        } else if (acceptKeyword("MODIFIED")) {
            which = "UPDATED";
        } else {
            throw malformed();
        }
        String age;
        if (acceptKeyword("OLD")) {
            age = "OLD";
        } else if (acceptKeyword("NEW")) {
            age = "NEW";
        } else {
            throw malformed();
        }
        if (!accept("*")) {
            throw Messages.validation(
                    "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
        }
        return which + "_" + age;
    }

    // ------------------------------------------------------------------ conditions

    private Cond condition() {
        Cond left = andCondition();
        while (acceptKeyword("OR")) {
            left = new Or(left, andCondition());
        }
        return left;
    }

    private Cond andCondition() {
        Cond left = notCondition();
        while (acceptKeyword("AND")) {
            left = new And(left, notCondition());
        }
        return left;
    }

    private Cond notCondition() {
        if (acceptKeyword("NOT")) {
            return new Not(notCondition());
        }
        return predicate();
    }

    private Cond predicate() {
        if (accept("(")) {
            Cond inner = condition();
            expect(")");
            return inner;
        }
        Token t = peek();
        if (t.kind() == Kind.IDENT && tokens.get(p + 1).is("(")) {
            String fn = t.text().toLowerCase(Locale.ROOT);
            if (CONDITION_FUNCTIONS.contains(fn)) {
                p += 2;
                List<Expr> args = new ArrayList<>();
                if (!accept(")")) {
                    do {
                        args.add(operand());
                    } while (accept(","));
                    expect(")");
                }
                return new Fn(fn, List.copyOf(args));
            }
        }
        Expr left = operand();
        Token op = peek();
        if (op.kind() == Kind.PUNCT) {
            String cmp =
                    switch (op.text()) {
                        case "=" -> "=";
                        case "<>", "!=" -> "<>";
                        case "<", "<=", ">", ">=" -> op.text();
                        default -> throw malformed();
                    };
            p++;
            return new Cmp(cmp, left, operand());
        }
        boolean negated = acceptKeyword("NOT");
        Cond c;
        if (acceptKeyword("BETWEEN")) {
            Expr low = operand();
            expectKeyword("AND");
            c = new Between(left, low, operand());
        } else if (acceptKeyword("IN")) {
            String close;
            if (accept("[")) {
                close = "]";
            } else if (accept("(")) {
                close = ")";
            } else {
                throw malformed();
            }
            List<Expr> candidates = new ArrayList<>();
            do {
                candidates.add(operand());
            } while (accept(","));
            expect(close);
            c = new In(left, List.copyOf(candidates));
        } else if (!negated && acceptKeyword("IS")) {
            boolean not = acceptKeyword("NOT");
            Token type = next();
            if (type.kind() != Kind.IDENT) {
                throw malformed();
            }
            if (!(left instanceof PathExpr path)) {
                throw Messages.validation(
                        "The left hand side argument to IS must be a Variable Reference, Literal,"
                                + " or Path");
            }
            return new Is(path, type.text().toUpperCase(Locale.ROOT), not);
        } else {
            throw malformed();
        }
        return negated ? new Not(c) : c;
    }

    /** An operand of a condition: a path, {@code size(path)}, a literal or a parameter. */
    private Expr operand() {
        Token t = peek();
        if (t.kind() == Kind.IDENT && tokens.get(p + 1).is("(")) {
            if (t.text().equalsIgnoreCase("size")) {
                p += 2;
                PathExpr path = path();
                expect(")");
                return new Size(path);
            }
            throw Messages.unrecognizedFunction(t.text());
        }
        if (t.kind() == Kind.IDENT && !isReserved(t) || t.kind() == Kind.QUOTED) {
            return path();
        }
        return constant();
    }

    // ------------------------------------------------------------------ update values

    private Expr setValue() {
        Expr left = setTerm();
        if (accept("+")) {
            return new Arith('+', left, setTerm());
        }
        if (accept("-")) {
            return new Arith('-', left, setTerm());
        }
        return left;
    }

    private Expr setTerm() {
        Token t = peek();
        if (t.kind() == Kind.IDENT && tokens.get(p + 1).is("(")) {
            String fn = t.text().toLowerCase(Locale.ROOT);
            if (!SET_FUNCTIONS.contains(fn)) {
                throw Messages.unrecognizedFunction(t.text());
            }
            p += 2;
            List<Expr> args = new ArrayList<>();
            if (!accept(")")) {
                do {
                    args.add(setValue());
                } while (accept(","));
                expect(")");
            }
            return new Call(fn, List.copyOf(args));
        }
        if (t.kind() == Kind.IDENT && !isReserved(t) || t.kind() == Kind.QUOTED) {
            return path();
        }
        return constant();
    }

    // ------------------------------------------------------------------ constants

    /** A literal, parameter or constructor (tuple, list, bag) of them; no paths. */
    private Expr constant() {
        Token t = next();
        switch (t.kind()) {
            case PARAM:
                return new Param(params++);
            case STRING:
                return new Literal(AttributeValues.s(t.text()));
            case NUMBER:
                return number(t.text(), false);
            case PUNCT:
                switch (t.text()) {
                    case "-":
                        {
                            Token n = next();
                            if (n.kind() != Kind.NUMBER) {
                                throw malformed();
                            }
                            return number(n.text(), true);
                        }
                    case "{":
                        return tuple();
                    case "[":
                        return list();
                    case "<<":
                        return bag();
                    default:
                        throw malformed();
                }
            case IDENT:
                switch (t.text().toUpperCase(Locale.ROOT)) {
                    case "TRUE", "FALSE" -> {
                        ObjectNode b = AttributeValues.JSON.objectNode();
                        b.put("BOOL", t.text().equalsIgnoreCase("TRUE"));
                        return new Literal(b);
                    }
                    case "NULL" -> {
                        ObjectNode n = AttributeValues.JSON.objectNode();
                        n.put("NULL", true);
                        return new Literal(n);
                    }
                    case "MISSING" -> throw Messages.validation(Messages.MISSING_WITHOUT_IS);
                    default -> throw malformed();
                }
            default:
                throw malformed();
        }
    }

    private Literal number(String text, boolean negative) {
        BigDecimal value = Numbers.parse(negative ? "-" + text : text);
        return new Literal(AttributeValues.n(value));
    }

    private Tuple tuple() {
        List<Entry> entries = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        if (!accept("}")) {
            do {
                Token key = next();
                if (key.kind() != Kind.STRING) {
                    if (key.kind() == Kind.PARAM || key.kind() == Kind.NUMBER) {
                        throw Messages.validation(
                                "Tuple keys must be of type String. Actual type: "
                                        + (key.kind() == Kind.NUMBER ? "NUMERIC" : "PARAMETER"));
                    }
                    throw malformed();
                }
                expect(":");
                if (!keys.add(key.text())) {
                    throw Messages.duplicateTupleKey(key.text());
                }
                entries.add(new Entry(key.text(), constant()));
            } while (accept(","));
            expect("}");
        }
        return new Tuple(List.copyOf(entries));
    }

    private ListExpr list() {
        List<Expr> elements = new ArrayList<>();
        if (!accept("]")) {
            do {
                elements.add(constant());
            } while (accept(","));
            expect("]");
        }
        return new ListExpr(List.copyOf(elements));
    }

    private Bag bag() {
        List<Expr> elements = new ArrayList<>();
        if (!accept(">>")) {
            do {
                Expr e = constant();
                if (!(e instanceof Literal lit)
                        || !(lit.value().has("S") || lit.value().has("N"))) {
                    throw Messages.validation(Messages.BAG_TYPES);
                }
                elements.add(e);
            } while (accept(","));
            expect(">>");
        }
        if (elements.isEmpty()) {
            throw Messages.validation(Messages.EMPTY_BAG);
        }
        boolean strings = ((Literal) elements.get(0)).value().has("S");
        for (Expr e : elements) {
            if (((Literal) e).value().has("S") != strings) {
                throw Messages.validation(Messages.BAG_TYPES);
            }
        }
        return new Bag(List.copyOf(elements));
    }

    // ------------------------------------------------------------------ names and paths

    private PathExpr path() {
        List<Object> steps = new ArrayList<>();
        steps.add(name());
        while (true) {
            if (accept(".")) {
                Token t = next();
                if (t.kind() != Kind.IDENT && t.kind() != Kind.QUOTED) {
                    throw malformed();
                }
                steps.add(t.text());
            } else if (accept("[")) {
                Token t = next();
                if (t.kind() == Kind.NUMBER && t.text().chars().allMatch(Character::isDigit)) {
                    steps.add(Integer.parseInt(t.text()));
                } else if (t.kind() == Kind.STRING) {
                    steps.add(t.text());
                } else {
                    throw malformed();
                }
                expect("]");
            } else {
                return new PathExpr(List.copyOf(steps));
            }
        }
    }

    /** A table, index or attribute name: a bare word that is not reserved, or a quoted one. */
    private String name() {
        Token t = next();
        if (t.kind() == Kind.QUOTED) {
            return t.text();
        }
        if (t.kind() == Kind.IDENT && !isReserved(t)) {
            return t.text();
        }
        throw malformed();
    }

    private static boolean isReserved(Token t) {
        return RESERVED.contains(t.text().toUpperCase(Locale.ROOT));
    }

    // ------------------------------------------------------------------ helpers

    private Token peek() {
        return tokens.get(p);
    }

    private Token next() {
        Token t = tokens.get(p);
        if (t.kind() != Kind.END) {
            p++;
        }
        return t;
    }

    private boolean accept(String punct) {
        if (peek().is(punct)) {
            p++;
            return true;
        }
        return false;
    }

    private boolean acceptKeyword(String keyword) {
        if (peek().isKeyword(keyword)) {
            p++;
            return true;
        }
        return false;
    }

    private void expect(String punct) {
        if (!accept(punct)) {
            throw malformed();
        }
    }

    private void expectKeyword(String keyword) {
        if (!acceptKeyword(keyword)) {
            throw malformed();
        }
    }

    private RuntimeException malformed() {
        return Messages.malformed(text);
    }
}
