package io.streamledger.local.partiql;

import io.streamledger.local.dynamodb.IndexDef;
import io.streamledger.local.dynamodb.Table;
import io.streamledger.local.partiql.Syntax.Parsed;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.annotation.Nullable;

/**
 * Parsed statements and their plans by statement text: the Flink sinks send the same few statement
 * texts with new parameters (AP16/AP17 batched conditional UPDATEs), so each text is parsed and
 * translated once per table definition. Bounded: cleared when full; a text that fails to parse is
 * not kept.
 */
final class StatementCache {
    static final int MAX_STATEMENTS = 4096;

    private final Map<String, Compiled> byText = new ConcurrentHashMap<>();

    Compiled get(String text) {
        Compiled c = byText.get(text);
        if (c != null) {
            return c;
        }
        c = new Compiled(Parser.parse(text));
        if (byText.size() >= MAX_STATEMENTS) {
            byText.clear();
        }
        byText.put(text, c);
        return c;
    }

    /** A parsed statement and its plan for the table definition it was last planned on. */
    static final class Compiled {
        private final Parsed parsed;
        private volatile @Nullable Planned planned;

        private record Planned(Table table, @Nullable IndexDef index, Object plan) {}

        Compiled(Parsed parsed) {
            this.parsed = parsed;
        }

        Parsed parsed() {
            return parsed;
        }

        /**
         * The plan for this table (and index, which UpdateTable can replace on a live table), made
         * by {@code planner} when the definition changed since the last plan.
         */
        @SuppressWarnings("unchecked")
        <P> P plan(Table table, @Nullable String indexName, Function<Table, P> planner) {
            IndexDef index = indexName == null ? null : table.index(indexName);
            Planned p = planned;
            if (p != null && p.table() == table && p.index() == index) {
                return (P) p.plan();
            }
            P plan = planner.apply(table);
            planned = new Planned(table, index, plan);
            return plan;
        }
    }
}
