package io.streamledger.sinks.posting;

import java.util.Locale;

/**
 * Why a posting transaction (AP09 + AP10 + AP12) is attempted again: the cause each retry is
 * counted by, so a run shows which retries a second writer caused and which the job caused itself.
 */
public enum PostingRetryCause {
    /** A counter remembered from this lane's last commit was moved by another writer since. */
    COUNTER_CACHE_STALE,
    /** A counter read consistently before the write was moved before the write landed. */
    COUNTER_VERSION,
    /** An AP12 authority item failed its condition. */
    AUTHORITY_VERSION,
    /** DynamoDB cancelled the transaction: another transaction held one of its items. */
    TRANSACTION_CONFLICT,
    /** Throttled (the counter read's unprocessed keys, or a throttling code). */
    THROTTLING,
    /** Any other transient failure (5xx, I/O, attempt timeouts). */
    OTHER;

    /** The posting sink's Flink counter of this cause, e.g. {@code retries_counterCacheStale}. */
    public String flinkCounter() {
        return "retries_" + metricName();
    }

    /** The metric label value, e.g. {@code counterCacheStale}. */
    public String metricName() {
        StringBuilder b = new StringBuilder();
        boolean upper = false;
        for (char c : name().toLowerCase(Locale.ROOT).toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                b.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return b.toString();
    }
}
