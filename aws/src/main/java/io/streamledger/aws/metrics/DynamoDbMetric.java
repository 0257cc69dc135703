package io.streamledger.aws.metrics;

import java.util.List;

/**
 * The DynamoDB metrics every module exports (seed capacity model: consumed units, throttles,
 * conditional failures, transaction cancellations, latency, item size and key skew by AP): the one
 * home of their Prometheus names, types and labels, documented in the aws README table.
 */
public enum DynamoDbMetric {
    REQUESTS(
            "streamledger_dynamodb_requests_total",
            Type.COUNTER,
            "calls made, per AP and the call's primary route",
            "ap",
            "route",
            "table",
            "index",
            "operation"),
    CONSUMED_READ_UNITS(
            "streamledger_dynamodb_consumed_read_units_total",
            Type.COUNTER,
            "read capacity units reported in ConsumedCapacity, per table and index",
            "ap",
            "route",
            "table",
            "index"),
    CONSUMED_WRITE_UNITS(
            "streamledger_dynamodb_consumed_write_units_total",
            Type.COUNTER,
            "write capacity units reported in ConsumedCapacity, per table and index",
            "ap",
            "route",
            "table",
            "index"),
    THROTTLES(
            "streamledger_dynamodb_throttles_total",
            Type.COUNTER,
            "throttled calls by error code (or cancellation reason)",
            "ap",
            "route",
            "table",
            "index",
            "reason"),
    CONDITIONAL_CHECK_FAILURES(
            "streamledger_dynamodb_conditional_check_failures_total",
            Type.COUNTER,
            "calls whose condition failed (single-item, or a transaction action)",
            "ap",
            "route",
            "table",
            "index"),
    TRANSACTION_CANCELLATIONS(
            "streamledger_dynamodb_transaction_cancellations_total",
            Type.COUNTER,
            "cancelled transactions, once per named reason code of their actions",
            "ap",
            "route",
            "table",
            "index",
            "reason"),
    ERRORS(
            "streamledger_dynamodb_errors_total",
            Type.COUNTER,
            "other failed calls by classifier class (RETRYABLE / FATAL)",
            "ap",
            "route",
            "table",
            "index",
            "reason"),
    RETRIES(
            "streamledger_dynamodb_retries_total",
            Type.COUNTER,
            "a caller's own retries of a whole operation (e.g. a posting transaction), by cause",
            "ap",
            "cause"),
    LATENCY(
            "streamledger_dynamodb_latency_seconds",
            Type.HISTOGRAM,
            "call latency (one SDK execution), successes and failures",
            "ap",
            "route",
            "table",
            "index",
            "operation"),
    ITEM_SIZE(
            "streamledger_dynamodb_item_size_bytes",
            Type.HISTOGRAM,
            "size of each item written (Put) or returned (Get, Query, Scan)",
            "ap",
            "route",
            "table",
            "index"),
    HOT_KEY_REQUESTS(
            "streamledger_dynamodb_hot_key_requests",
            Type.GAUGE,
            "space-saving estimate of the rank-th busiest partition key's calls",
            "ap",
            "rank"),
    MAX_KEY_SHARE(
            "streamledger_dynamodb_max_key_share",
            Type.GAUGE,
            "busiest partition key's share of the AP's calls (lane formula's max-key share)",
            "ap");

    /** Prometheus metric type. */
    public enum Type {
        COUNTER,
        HISTOGRAM,
        GAUGE
    }

    /** Histogram bucket bounds of {@link #LATENCY}, seconds. */
    public static final List<Double> LATENCY_BUCKETS =
            List.of(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0);

    /** Histogram bucket bounds of {@link #ITEM_SIZE}, bytes (400 KB is the item limit). */
    public static final List<Double> ITEM_SIZE_BUCKETS =
            List.of(256.0, 512.0, 1024.0, 2048.0, 4096.0, 16384.0, 65536.0, 409600.0);

    private final String prometheusName;
    private final Type type;
    private final String help;
    private final List<String> labels;

    DynamoDbMetric(String prometheusName, Type type, String help, String... labels) {
        this.prometheusName = prometheusName;
        this.type = type;
        this.help = help;
        this.labels = List.of(labels);
    }

    /** The name as scraped from the command service, e.g. {@code ..._requests_total}. */
    public String prometheusName() {
        return prometheusName;
    }

    /** The name without the suffix a Prometheus client adds ({@code _total}, the unit). */
    public String baseName() {
        String n = prometheusName;
        for (String suffix : List.of("_total", "_seconds", "_bytes")) {
            if (n.endsWith(suffix)) {
                return n.substring(0, n.length() - suffix.length());
            }
        }
        return n;
    }

    /** The histogram's base unit ({@code seconds}, {@code bytes}) or null. */
    public String unit() {
        if (type != Type.HISTOGRAM) {
            return null;
        }
        return prometheusName.endsWith("_seconds") ? "seconds" : "bytes";
    }

    public List<Double> buckets() {
        return this == LATENCY
                ? LATENCY_BUCKETS
                : this == ITEM_SIZE ? ITEM_SIZE_BUCKETS : List.of();
    }

    public Type type() {
        return type;
    }

    public String help() {
        return help;
    }

    public List<String> labels() {
        return labels;
    }
}
