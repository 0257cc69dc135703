package io.streamledger.sinks.versioned;

import io.streamledger.sinks.client.ItemWriteClient;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * In-process stand-in for the narrow {@link ItemWriteClient}: keeps one version per item id and
 * applies exactly the sink's guard (newer version or absent item), nothing more of DynamoDB. Tests
 * script per-item failures and may hold completions to observe concurrency.
 */
final class FakeItemWriteClient implements ItemWriteClient {
    static final double UNITS_PER_WRITE = 1.0;

    private final Map<String, Long> versions = new HashMap<>();
    private final Map<String, Deque<RuntimeException>> scripted = new HashMap<>();
    private final List<String> calls = new ArrayList<>();
    private final Deque<Runnable> held = new ArrayDeque<>();
    private boolean holdCompletions;
    private int outstanding;
    private int maxOutstanding;
    boolean closed;

    /** The item id the fake uses: the PK attribute's string value. */
    static String id(Map<String, AttributeValue> key) {
        return key.get("PK").s() + (key.containsKey("SK") ? "|" + key.get("SK").s() : "");
    }

    synchronized void failNext(String itemId, RuntimeException... errors) {
        Deque<RuntimeException> q = scripted.computeIfAbsent(itemId, k -> new ArrayDeque<>());
        for (RuntimeException e : errors) {
            q.add(e);
        }
    }

    synchronized void holdCompletions() {
        holdCompletions = true;
    }

    /** Completes held calls one at a time until none are left. */
    void releaseAll() {
        while (true) {
            Runnable r;
            synchronized (this) {
                r = held.poll();
            }
            if (r == null) {
                return;
            }
            r.run();
        }
    }

    synchronized Long version(String itemId) {
        return versions.get(itemId);
    }

    synchronized List<String> calls() {
        return new ArrayList<>(calls);
    }

    synchronized int maxOutstanding() {
        return maxOutstanding;
    }

    static DynamoDbException throttled() {
        return (DynamoDbException)
                DynamoDbException.builder()
                        .statusCode(400)
                        .awsErrorDetails(
                                AwsErrorDetails.builder()
                                        .errorCode("ProvisionedThroughputExceededException")
                                        .errorMessage("slow down")
                                        .build())
                        .build();
    }

    static DynamoDbException validation() {
        return (DynamoDbException)
                DynamoDbException.builder()
                        .statusCode(400)
                        .awsErrorDetails(
                                AwsErrorDetails.builder()
                                        .errorCode("ValidationException")
                                        .errorMessage("bad expression")
                                        .build())
                        .build();
    }

    @Override
    public CompletableFuture<Double> updateItem(UpdateItemRequest request) {
        long v = Long.parseLong(request.expressionAttributeValues().get(":sl_v").n());
        return apply("update", id(request.key()), v, true);
    }

    @Override
    public CompletableFuture<Double> putItem(PutItemRequest request) {
        long v = Long.parseLong(request.item().get("sourceVersion").n());
        return apply("put", id(request.item()), v, false);
    }

    private CompletableFuture<Double> apply(String op, String id, long v, boolean versionGuard) {
        CompletableFuture<Double> result = new CompletableFuture<>();
        Runnable completion;
        synchronized (this) {
            calls.add(op + " " + id + " v" + v);
            outstanding++;
            maxOutstanding = Math.max(maxOutstanding, outstanding);
            Deque<RuntimeException> q = scripted.get(id);
            RuntimeException failure = q == null ? null : q.poll();
            if (failure == null) {
                Long current = versions.get(id);
                boolean allowed = current == null || (versionGuard && current < v);
                if (allowed) {
                    versions.put(id, v);
                } else {
                    failure =
                            ConditionalCheckFailedException.builder()
                                    .message("The conditional request failed")
                                    .build();
                }
            }
            RuntimeException error = failure;
            completion =
                    () -> {
                        synchronized (this) {
                            outstanding--;
                        }
                        if (error != null) {
                            result.completeExceptionally(error);
                        } else {
                            result.complete(UNITS_PER_WRITE);
                        }
                    };
            if (holdCompletions) {
                held.add(completion);
                return result;
            }
        }
        completion.run();
        return result;
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
