package io.streamledger.savepoints.bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Writes rows of a fresh namespace with BatchWriteItem (CS09 step 4): at most 25 puts per call,
 * only the unprocessed remainder is retried, with capped exponential backoff and a bounded number
 * of rounds. Throttling and 5xx are retried by the SDK's own strategy first; a validation error is
 * fatal. Unconditional puts are safe only because the target namespace was checked empty before the
 * bootstrap and nobody else writes it until catch-up starts.
 */
public final class BatchPutWriter implements AutoCloseable {

    /** DynamoDB's BatchWriteItem limit. */
    public static final int MAX_BATCH = 25;

    private final DynamoDbClient client;
    private final int maxRounds;
    private final long baseBackoffMillis;
    private final List<WriteRequest> buffer = new ArrayList<>(MAX_BATCH);
    private String table;
    private long written;
    private long retriedItems;

    public BatchPutWriter(DynamoDbClient client, int maxRounds, long baseBackoffMillis) {
        if (maxRounds < 1) {
            throw new IllegalArgumentException("maxRounds must be >= 1");
        }
        this.client = client;
        this.maxRounds = maxRounds;
        this.baseBackoffMillis = baseBackoffMillis;
    }

    /** Buffers one put; flushes when 25 are buffered or the table changes. */
    public void put(String tableName, Map<String, AttributeValue> item) {
        if (table != null && !table.equals(tableName)) {
            flush();
        }
        table = tableName;
        buffer.add(
                WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
        if (buffer.size() >= MAX_BATCH) {
            flush();
        }
    }

    public void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        List<WriteRequest> pending = new ArrayList<>(buffer);
        buffer.clear();
        int sent = pending.size();
        for (int round = 1; ; round++) {
            BatchWriteItemResponse r;
            try {
                r = client.batchWriteItem(b -> b.requestItems(Map.of(table, pending)));
            } catch (SdkException e) {
                // the SDK already retried retryable errors; what reaches here is fatal
                throw new IllegalStateException(
                        "BatchWriteItem to "
                                + table
                                + " failed after SDK retries: "
                                + e.getMessage(),
                        e);
            }
            List<WriteRequest> left = r.unprocessedItems().getOrDefault(table, List.of());
            if (left.isEmpty()) {
                written += sent;
                return;
            }
            if (round >= maxRounds) {
                throw new IllegalStateException(
                        left.size()
                                + " items to "
                                + table
                                + " still unprocessed after "
                                + maxRounds
                                + " BatchWriteItem rounds");
            }
            retriedItems += left.size();
            pending.clear();
            pending.addAll(left);
            sleep(Math.min(5_000L, baseBackoffMillis << Math.min(round - 1, 10)));
        }
    }

    public long written() {
        return written;
    }

    public long retriedItems() {
        return retriedItems;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while backing off", e);
        }
    }

    @Override
    public void close() {
        flush();
    }
}
