package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.IndexDef;
import io.streamledger.local.dynamodb.KeyDef;
import io.streamledger.local.dynamodb.Table;
import io.streamledger.local.partiql.Syntax.Between;
import io.streamledger.local.partiql.Syntax.Cmp;
import io.streamledger.local.partiql.Syntax.Cond;
import io.streamledger.local.partiql.Syntax.Expr;
import io.streamledger.local.partiql.Syntax.Fn;
import io.streamledger.local.partiql.Syntax.In;
import io.streamledger.local.partiql.Syntax.Or;
import io.streamledger.local.partiql.Syntax.OrderKey;
import io.streamledger.local.partiql.Syntax.PathExpr;
import io.streamledger.local.partiql.Syntax.Select;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * A SELECT translated into the reads DynamoDB runs for it (AP01–AP07 access paths): equality on the
 * whole primary key of a table is GetItem (one per key of an {@code IN}), equality on the partition
 * key of the table or index is Query (one per partition key value) with the sort-key conditions as
 * its key condition and the other conjuncts as its filter, anything else is a Scan filtered by the
 * whole WHERE clause. A conjunct on a key attribute that no key condition can carry (a second range
 * on the sort key, an OR across keys) makes the read a Scan, as a Query's filter may not name key
 * attributes.
 */
record ReadPlan(
        Mode mode,
        Table table,
        @Nullable String index,
        KeyDef key,
        List<String> lookupAttributes,
        List<List<Expr>> lookups,
        @Nullable String keyCondition,
        @Nullable String filter,
        @Nullable ObjectNode names,
        List<Expr> values,
        boolean forward,
        boolean lookupsDescending,
        @Nullable List<PathExpr> projection) {

    enum Mode {
        GET,
        QUERY,
        SCAN
    }

    /** DynamoDB decomposes an IN on the partition key into at most this many reads. */
    static final int MAX_LOOKUPS = 50;

    static ReadPlan of(Select s, Table table) {
        checkProjection(s.projection());
        IndexDef index = s.index() == null ? null : table.index(s.index());
        if (s.index() != null && index == null) {
            // the engine's Scan names the missing index with DynamoDB's message
            return scan(s, table, table.key());
        }
        KeyDef key = index == null ? table.key() : index.key();
        List<Cond> rest = KeyMatch.conjuncts(s.where());
        List<List<Expr>> lookups = partitionLookups(rest, key);
        if (lookups == null) {
            return scan(s, table, key);
        }
        List<Cond> rangeConditions = new ArrayList<>();
        boolean allEqual = true;
        for (String attr : key.ranges()) {
            Cond c = null;
            for (int i = 0; i < rest.size(); i++) {
                c = rangeCondition(rest.get(i), attr);
                if (c != null) {
                    rest.remove(i);
                    break;
                }
            }
            if (c == null) {
                allEqual = false;
                break;
            }
            rangeConditions.add(c);
            if (!(c instanceof Cmp cmp && cmp.op().equals("="))) {
                allEqual = false;
                break;
            }
        }
        for (Cond c : rest) {
            if (mentionsKey(c, key)) {
                return scan(s, table, key);
            }
        }
        boolean forward = true;
        boolean descending = false;
        for (OrderKey o : s.orderBy()) {
            if (key.hashes().contains(o.attribute())) {
                descending = o.descending();
            } else if (key.ranges().contains(o.attribute())) {
                forward = !o.descending();
            } else {
                throw Messages.orderByNotKey(o.attribute());
            }
        }
        if (index == null && allEqual && rest.isEmpty()) {
            List<String> attrs = new ArrayList<>(key.hashes());
            attrs.addAll(key.ranges());
            List<List<Expr>> gets = new ArrayList<>();
            for (List<Expr> lookup : lookups) {
                List<Expr> full = new ArrayList<>(lookup);
                for (Cond c : rangeConditions) {
                    full.add(((Cmp) c).right());
                }
                gets.add(List.copyOf(full));
            }
            return new ReadPlan(
                    Mode.GET,
                    table,
                    null,
                    key,
                    List.copyOf(attrs),
                    List.copyOf(gets),
                    null,
                    null,
                    null,
                    List.of(),
                    forward,
                    descending,
                    s.projection());
        }
        ExpressionWriter w = new ExpressionWriter();
        StringBuilder kc = new StringBuilder();
        for (int i = 0; i < key.hashes().size(); i++) {
            if (i > 0) {
                kc.append(" AND ");
            }
            kc.append(w.name(key.hashes().get(i))).append(" = :k").append(i);
        }
        for (Cond c : rangeConditions) {
            kc.append(" AND ").append(w.condition(c));
        }
        String filter = rest.isEmpty() ? null : w.condition(KeyMatch.and(rest));
        return new ReadPlan(
                Mode.QUERY,
                table,
                s.index(),
                key,
                key.hashes(),
                lookups,
                kc.toString(),
                filter,
                w.names(),
                w.values(),
                forward,
                descending,
                s.projection());
    }

    private static ReadPlan scan(Select s, Table table, KeyDef key) {
        if (!s.orderBy().isEmpty()) {
            throw Messages.validation(
                    s.where() == null
                            ? Messages.ORDER_BY_WITHOUT_WHERE
                            : Messages.ORDER_BY_WITHOUT_HASH);
        }
        ExpressionWriter w = new ExpressionWriter();
        String filter = s.where() == null ? null : w.condition(s.where());
        return new ReadPlan(
                Mode.SCAN,
                table,
                s.index(),
                key,
                List.of(),
                List.of(),
                null,
                filter,
                w.names(),
                w.values(),
                true,
                false,
                s.projection());
    }

    /** Names in a result must differ: {@code a.z} and {@code z} both name the result {@code z}. */
    private static void checkProjection(@Nullable List<PathExpr> projection) {
        if (projection == null) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (PathExpr p : projection) {
            if (!seen.add(p.resultName())) {
                throw Messages.duplicateProjection(p.resultName());
            }
        }
    }

    /**
     * The partition key values the WHERE clause fixes, one list per read; removes the conjuncts
     * used. Null when a partition key attribute has no equality (the read is a Scan).
     */
    private static @Nullable List<List<Expr>> partitionLookups(List<Cond> rest, KeyDef key) {
        if (key.hashes().size() == 1) {
            String h = key.hash();
            for (int i = 0; i < rest.size(); i++) {
                List<Expr> values = partitionValues(rest.get(i), h);
                if (values != null) {
                    rest.remove(i);
                    List<List<Expr>> lookups = new ArrayList<>();
                    for (Expr v : values) {
                        lookups.add(List.of(v));
                    }
                    return lookups;
                }
            }
            return null;
        }
        List<Cond> remaining = new ArrayList<>(rest);
        List<Expr> combo = new ArrayList<>();
        for (String h : key.hashes()) {
            Expr found = null;
            for (int i = 0; i < remaining.size(); i++) {
                found = KeyMatch.equality(remaining.get(i), h);
                if (found != null) {
                    remaining.remove(i);
                    break;
                }
            }
            if (found == null) {
                return null;
            }
            combo.add(found);
        }
        rest.clear();
        rest.addAll(remaining);
        return List.of(List.copyOf(combo));
    }

    /** {@code h = v}, {@code h IN [v, …]} or {@code h = v OR h = w …}: the values; else null. */
    private static @Nullable List<Expr> partitionValues(Cond c, String h) {
        Expr eq = KeyMatch.equality(c, h);
        if (eq != null) {
            return List.of(eq);
        }
        if (c instanceof In in && KeyMatch.isAttribute(in.value(), h)) {
            for (Expr e : in.candidates()) {
                if (!KeyMatch.isConstant(e)) {
                    return null;
                }
            }
            return in.candidates();
        }
        if (c instanceof Or or) {
            List<Expr> left = partitionValues(or.left(), h);
            List<Expr> right = left == null ? null : partitionValues(or.right(), h);
            if (right == null) {
                return null;
            }
            List<Expr> both = new ArrayList<>(left);
            both.addAll(right);
            return both;
        }
        return null;
    }

    /**
     * A condition a Query's key condition can carry on a sort key attribute, with the attribute on
     * the left: =, <, <=, >, >=, BETWEEN or begins_with against constants; else null.
     */
    private static @Nullable Cond rangeCondition(Cond c, String attr) {
        if (c instanceof Cmp cmp && !cmp.op().equals("<>")) {
            if (KeyMatch.isAttribute(cmp.left(), attr) && KeyMatch.isConstant(cmp.right())) {
                return cmp;
            }
            if (KeyMatch.isAttribute(cmp.right(), attr) && KeyMatch.isConstant(cmp.left())) {
                String flipped =
                        switch (cmp.op()) {
                            case "<" -> ">";
                            case "<=" -> ">=";
                            case ">" -> "<";
                            case ">=" -> "<=";
                            default -> cmp.op();
                        };
                return new Cmp(flipped, cmp.right(), cmp.left());
            }
            return null;
        }
        if (c instanceof Between b
                && KeyMatch.isAttribute(b.value(), attr)
                && KeyMatch.isConstant(b.low())
                && KeyMatch.isConstant(b.high())) {
            return b;
        }
        if (c instanceof Fn f
                && f.name().equals("begins_with")
                && f.args().size() == 2
                && KeyMatch.isAttribute(f.args().get(0), attr)
                && KeyMatch.isConstant(f.args().get(1))) {
            return f;
        }
        return null;
    }

    /** True if the condition names a top-level attribute of the key schema. */
    private static boolean mentionsKey(Cond c, KeyDef key) {
        Set<String> attrs = new HashSet<>();
        topLevelNames(c, attrs);
        for (String a : attrs) {
            if (key.hashes().contains(a) || key.ranges().contains(a)) {
                return true;
            }
        }
        return false;
    }

    private static void topLevelNames(Cond c, Set<String> out) {
        if (c instanceof Syntax.And a) {
            topLevelNames(a.left(), out);
            topLevelNames(a.right(), out);
        } else if (c instanceof Or o) {
            topLevelNames(o.left(), out);
            topLevelNames(o.right(), out);
        } else if (c instanceof Syntax.Not n) {
            topLevelNames(n.inner(), out);
        } else if (c instanceof Cmp cmp) {
            topLevelName(cmp.left(), out);
            topLevelName(cmp.right(), out);
        } else if (c instanceof Between b) {
            topLevelName(b.value(), out);
            topLevelName(b.low(), out);
            topLevelName(b.high(), out);
        } else if (c instanceof In in) {
            topLevelName(in.value(), out);
            in.candidates().forEach(e -> topLevelName(e, out));
        } else if (c instanceof Syntax.Is is) {
            out.add(is.path().top());
        } else if (c instanceof Fn f) {
            f.args().forEach(e -> topLevelName(e, out));
        }
    }

    private static void topLevelName(Expr e, Set<String> out) {
        if (e instanceof PathExpr p) {
            out.add(p.top());
        } else if (e instanceof Syntax.Size s) {
            out.add(s.path().top());
        }
    }
}
