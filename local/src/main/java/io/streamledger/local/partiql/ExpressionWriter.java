package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.partiql.Syntax.And;
import io.streamledger.local.partiql.Syntax.Arith;
import io.streamledger.local.partiql.Syntax.Between;
import io.streamledger.local.partiql.Syntax.Call;
import io.streamledger.local.partiql.Syntax.Cmp;
import io.streamledger.local.partiql.Syntax.Cond;
import io.streamledger.local.partiql.Syntax.Expr;
import io.streamledger.local.partiql.Syntax.Fn;
import io.streamledger.local.partiql.Syntax.In;
import io.streamledger.local.partiql.Syntax.Is;
import io.streamledger.local.partiql.Syntax.Literal;
import io.streamledger.local.partiql.Syntax.Not;
import io.streamledger.local.partiql.Syntax.Or;
import io.streamledger.local.partiql.Syntax.PathExpr;
import io.streamledger.local.partiql.Syntax.Size;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Writes PartiQL conditions and update actions as DynamoDB expressions — the engine's own
 * condition, update and filter language, evaluated by its one evaluator (AP16/AP17 guards) — with
 * every name as a {@code #n} placeholder (so reserved words never matter) and every constant as a
 * {@code :v} placeholder whose value is bound per execution.
 */
final class ExpressionWriter {
    private final Map<String, String> names = new LinkedHashMap<>();
    private final List<Expr> values = new ArrayList<>();

    /** Expression attribute names collected so far, or null when none. */
    @Nullable
    ObjectNode names() {
        if (names.isEmpty()) {
            return null;
        }
        ObjectNode o = AttributeValues.JSON.objectNode();
        names.forEach((attr, placeholder) -> o.put(placeholder, attr));
        return o;
    }

    /** Constant expressions behind {@code :v0, :v1, …}, in order. */
    List<Expr> values() {
        return List.copyOf(values);
    }

    String name(String attribute) {
        return names.computeIfAbsent(attribute, a -> "#n" + names.size());
    }

    /** A placeholder for a constant, bound later by {@link Binder}. */
    String value(Expr constant) {
        values.add(constant);
        return ":v" + (values.size() - 1);
    }

    String path(PathExpr p) {
        StringBuilder sb = new StringBuilder(name(p.top()));
        for (int i = 1; i < p.steps().size(); i++) {
            Object step = p.steps().get(i);
            if (step instanceof Integer idx) {
                sb.append('[').append(idx).append(']');
            } else {
                sb.append('.').append(name((String) step));
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ conditions

    /** A condition; parentheses only where precedence needs them (the engine refuses extra). */
    String condition(Cond c) {
        StringBuilder sb = new StringBuilder();
        condition(c, sb);
        return sb.toString();
    }

    private void condition(Cond c, StringBuilder sb) {
        if (c instanceof Or o) {
            condition(o.left(), sb);
            sb.append(" OR ");
            condition(o.right(), sb);
        } else if (c instanceof And a) {
            grouped(a.left(), a.left() instanceof Or, sb);
            sb.append(" AND ");
            grouped(a.right(), a.right() instanceof Or, sb);
        } else if (c instanceof Not n) {
            sb.append("NOT ");
            grouped(n.inner(), n.inner() instanceof And || n.inner() instanceof Or, sb);
        } else if (c instanceof Cmp cmp) {
            sb.append(operand(cmp.left())).append(' ').append(cmp.op()).append(' ');
            sb.append(operand(cmp.right()));
        } else if (c instanceof Between b) {
            sb.append(operand(b.value())).append(" BETWEEN ").append(operand(b.low()));
            sb.append(" AND ").append(operand(b.high()));
        } else if (c instanceof In in) {
            sb.append(operand(in.value())).append(" IN (");
            for (int i = 0; i < in.candidates().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(operand(in.candidates().get(i)));
            }
            sb.append(')');
        } else if (c instanceof Is is) {
            is(is, sb);
        } else {
            Fn f = (Fn) c;
            sb.append(f.name()).append('(');
            for (int i = 0; i < f.args().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(operand(f.args().get(i)));
            }
            sb.append(')');
        }
    }

    private void grouped(Cond c, boolean parenthesize, StringBuilder sb) {
        if (parenthesize) {
            sb.append('(');
            condition(c, sb);
            sb.append(')');
        } else {
            condition(c, sb);
        }
    }

    /** {@code IS [NOT] MISSING} is attribute_(not_)exists; a type test is attribute_type. */
    private void is(Is is, StringBuilder sb) {
        String path = path(is.path());
        if (is.type().equals("MISSING")) {
            sb.append(is.negated() ? "attribute_exists(" : "attribute_not_exists(");
            sb.append(path).append(')');
            return;
        }
        String type =
                switch (is.type()) {
                    case "NULL" -> "NULL";
                    case "BOOLEAN", "BOOL" -> "BOOL";
                    case "STRING" -> "S";
                    case "NUMERIC", "NUMBER", "DECIMAL", "INT", "INTEGER", "FLOAT" -> "N";
                    case "BLOB" -> "B";
                    case "LIST" -> "L";
                    case "STRUCT", "TUPLE" -> "M";
                    default -> throw Messages.unsupportedIsType(is.type());
                };
        if (is.negated()) {
            sb.append("NOT ");
        }
        sb.append("attribute_type(").append(path).append(", ");
        sb.append(value(new Literal(AttributeValues.s(type)))).append(')');
    }

    private String operand(Expr e) {
        if (e instanceof PathExpr p) {
            return path(p);
        }
        if (e instanceof Size s) {
            return "size(" + path(s.path()) + ")";
        }
        if (e instanceof Arith a) {
            throw Messages.unsupportedConditionOperator(String.valueOf(a.op()));
        }
        if (e instanceof Call c) {
            throw Messages.unrecognizedFunction(c.name());
        }
        return value(e);
    }

    // ------------------------------------------------------------------ updates

    /**
     * An UpdateExpression of SET/REMOVE actions; {@code SET a = set_add(a, <<…>>)} becomes ADD and
     * {@code set_delete} DELETE, as DynamoDB translates them.
     */
    String update(List<Syntax.Action> actions) {
        List<String> set = new ArrayList<>();
        List<String> remove = new ArrayList<>();
        List<String> add = new ArrayList<>();
        List<String> delete = new ArrayList<>();
        for (Syntax.Action a : actions) {
            if (a instanceof Syntax.RemoveAction r) {
                remove.add(path(r.path()));
                continue;
            }
            Syntax.SetAction s = (Syntax.SetAction) a;
            if (s.value() instanceof Call c
                    && (c.name().equals("set_add") || c.name().equals("set_delete"))) {
                String fn = c.name().toUpperCase(java.util.Locale.ROOT);
                if (c.args().size() != 2) {
                    throw Messages.setFunctionArguments(fn);
                }
                if (!(c.args().get(0) instanceof PathExpr target) || !target.equals(s.path())) {
                    throw Messages.setFunctionTarget(fn);
                }
                Expr set2 = c.args().get(1);
                if (!(set2 instanceof Syntax.Bag) && !(set2 instanceof Syntax.Param)) {
                    throw Messages.setFunctionSet(fn);
                }
                (c.name().equals("set_add") ? add : delete).add(path(s.path()) + " " + value(set2));
                continue;
            }
            set.add(path(s.path()) + " = " + setValue(s.value()));
        }
        StringBuilder sb = new StringBuilder();
        clause(sb, "SET", set);
        clause(sb, "REMOVE", remove);
        clause(sb, "ADD", add);
        clause(sb, "DELETE", delete);
        return sb.toString();
    }

    private static void clause(StringBuilder sb, String keyword, List<String> parts) {
        if (parts.isEmpty()) {
            return;
        }
        if (sb.length() > 0) {
            sb.append(' ');
        }
        sb.append(keyword).append(' ').append(String.join(", ", parts));
    }

    private String setValue(Expr e) {
        if (e instanceof Arith a) {
            return setValue(a.left()) + " " + a.op() + " " + setValue(a.right());
        }
        if (e instanceof Call c) {
            if (!c.name().equals("list_append")) {
                throw Messages.unrecognizedFunction(c.name());
            }
            if (c.args().size() != 2) {
                throw Messages.validation(
                        "Incorrect number of arguments for function: list_append");
            }
            return "list_append("
                    + setValue(c.args().get(0))
                    + ", "
                    + setValue(c.args().get(1))
                    + ")";
        }
        if (e instanceof PathExpr p) {
            return path(p);
        }
        if (e instanceof Size) {
            throw Messages.unrecognizedFunction("size");
        }
        return value(e);
    }
}
