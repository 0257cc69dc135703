package io.streamledger.stack;

import io.streamledger.jobs.projection.PortfolioRows;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Measures freshness end to end (AP07 view lag; DESIGN "Operations"): for a sampled fill, the
 * Portfolio position row's version is read just before the fill is sent; after the command service
 * admits it, the row is polled until its version moves past that value. One sample in flight at a
 * time. A concurrent earlier fill of the same account and symbol can move the row first, so the
 * figure is a lower bound when fills of one position overlap (rare with the default shape).
 */
final class FreshnessProbe implements AutoCloseable {

    /** A sample between "before send" and "row visible". */
    static final class Sample {
        final Map<String, AttributeValue> key;
        final long versionBefore;
        volatile long acceptedNanos = -1;

        Sample(Map<String, AttributeValue> key, long versionBefore) {
            this.key = key;
            this.versionBefore = versionBefore;
        }
    }

    private final DynamoDbClient ddb;
    private final String portfolioTable;
    private final long minSpacingNanos;
    private final AtomicReference<Sample> pending = new AtomicReference<>();
    private final List<Long> millis = Collections.synchronizedList(new ArrayList<>());
    private final Thread poller;
    private volatile boolean closed;
    private volatile long lastSampleNanos;
    private volatile long firstRowNanos = -1;
    private final Instant startedAt = Instant.now();

    FreshnessProbe(DynamoDbClient ddb, String portfolioTable, long minSpacingMillis) {
        this.ddb = ddb;
        this.portfolioTable = portfolioTable;
        this.minSpacingNanos = minSpacingMillis * 1_000_000L;
        this.poller = new Thread(this::poll, "freshness-probe");
        this.poller.setDaemon(true);
        this.poller.start();
    }

    /** A new sample for this position if none is in flight and the spacing allows, else null. */
    @Nullable
    synchronized Sample beforeFill(String tenant, String accountId, String symbol) {
        long now = System.nanoTime();
        if (pending.get() != null || now - lastSampleNanos < minSpacingNanos) {
            return null;
        }
        PositionKey k = new PositionKey(tenant, accountId, symbol);
        Map<String, AttributeValue> key =
                Map.of(
                        Attr.PK, AttributeValue.fromS(k.pk()),
                        Attr.SK, AttributeValue.fromS(k.sk()));
        Sample s = new Sample(key, version(key));
        lastSampleNanos = now;
        pending.set(s);
        return s;
    }

    /** The fill was admitted at {@code acceptedNanos}: start waiting for the row. */
    void admitted(Sample s, long acceptedNanos) {
        s.acceptedNanos = acceptedNanos;
    }

    /** The fill was not admitted: drop the sample. */
    void abandoned(Sample s) {
        pending.compareAndSet(s, null);
    }

    List<Long> samplesMillis() {
        synchronized (millis) {
            return new ArrayList<>(millis);
        }
    }

    /** System.nanoTime() when the first Portfolio row was seen, or -1. */
    long firstRowNanos() {
        return firstRowNanos;
    }

    /** A row written by this run (a reused data dir already has rows from earlier runs). */
    private boolean rowProjectedSinceStart() {
        return ddb.scan(
                                b ->
                                        b.tableName(portfolioTable)
                                                .filterExpression("#at >= :start")
                                                .expressionAttributeNames(
                                                        Map.of("#at", PortfolioRows.PROJECTED_AT))
                                                .expressionAttributeValues(
                                                        Map.of(
                                                                ":start",
                                                                AttributeValue.fromS(
                                                                        startedAt.toString()))))
                        .count()
                > 0;
    }

    private long version(Map<String, AttributeValue> key) {
        Map<String, AttributeValue> item =
                ddb.getItem(b -> b.tableName(portfolioTable).key(key).consistentRead(true)).item();
        if (item == null || !item.containsKey(Attr.SOURCE_VERSION)) {
            return 0;
        }
        return Long.parseLong(item.get(Attr.SOURCE_VERSION).n());
    }

    private void poll() {
        while (!closed) {
            try {
                if (firstRowNanos < 0 && rowProjectedSinceStart()) {
                    firstRowNanos = System.nanoTime();
                }
                Sample s = pending.get();
                if (s != null && s.acceptedNanos > 0 && version(s.key) > s.versionBefore) {
                    millis.add((System.nanoTime() - s.acceptedNanos) / 1_000_000L);
                    pending.compareAndSet(s, null);
                }
                Thread.sleep(firstRowNanos < 0 ? 100 : 20);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the endpoint is closing or busy: try again on the next tick
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** p-th percentile (nearest rank) of the samples, or -1 without samples. */
    static long percentile(List<Long> values, double p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    @Override
    public void close() {
        closed = true;
        poller.interrupt();
        try {
            poller.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
