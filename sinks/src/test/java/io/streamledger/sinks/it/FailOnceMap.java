package io.streamledger.sinks.it;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * Pass-through that throws once, at its {@code failAt}-th element, to force a restart from the last
 * checkpoint; "once" is remembered per token in this JVM (the MiniCluster runs in-process).
 */
public final class FailOnceMap implements MapFunction<PositionEvent, PositionEvent> {
    private static final long serialVersionUID = 1L;
    private static final Set<String> FAILED = ConcurrentHashMap.newKeySet();

    private final String token;
    private final long failAt;
    private long seen;

    public FailOnceMap(String token, long failAt) {
        this.token = token;
        this.failAt = failAt;
    }

    public static boolean hasFailed(String token) {
        return FAILED.contains(token);
    }

    @Override
    public PositionEvent map(PositionEvent value) {
        seen++;
        if (seen == failAt && FAILED.add(token)) {
            throw new IllegalStateException("injected failure at element " + failAt);
        }
        return value;
    }
}
