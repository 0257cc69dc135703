package io.streamledger.sinks.posting;

import io.streamledger.operators.posting.PostingSequence;
import java.time.YearMonth;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The account-month sequence counters (AP10) this subtask committed last, so the next fill of the
 * same lane can skip the consistent read. A hint, never an authority: the counter write's
 * compare-and-set on {@code version} still decides, and the caller drops entries after any failed
 * attempt. Bounded: when full it is cleared (a miss only costs one read).
 */
public final class CounterCache {

    /** ~100 bytes per entry: 100,000 entries stay within a few MB of task heap. */
    public static final int DEFAULT_MAX_ENTRIES = 100_000;

    private final int maxEntries;
    private final Map<String, PostingSequence.Counter> entries = new ConcurrentHashMap<>();

    public CounterCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be >= 1, got " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /** All of {@code accounts}' counters in account order, or null if any is unknown. */
    Map<String, PostingSequence.Counter> getAll(
            String tenant, YearMonth month, List<String> accounts) {
        Map<String, PostingSequence.Counter> out = new LinkedHashMap<>();
        for (String a : accounts) {
            PostingSequence.Counter c = entries.get(key(tenant, a, month));
            if (c == null) {
                return null;
            }
            out.put(a, c);
        }
        return out;
    }

    /** Remembers the counters a committed transaction wrote. */
    void putAll(String tenant, YearMonth month, Map<String, PostingSequence.Counter> counters) {
        if (entries.size() + counters.size() > maxEntries) {
            entries.clear();
        }
        counters.forEach((a, c) -> entries.put(key(tenant, a, month), c));
    }

    /** Forgets {@code accounts}' counters (the attempt failed: the store may differ). */
    void removeAll(String tenant, YearMonth month, List<String> accounts) {
        for (String a : accounts) {
            entries.remove(key(tenant, a, month));
        }
    }

    int size() {
        return entries.size();
    }

    private static String key(String tenant, String account, YearMonth month) {
        // '\n' cannot occur in ids (key grammar rejects control characters)
        return tenant + '\n' + account + '\n' + month;
    }
}
