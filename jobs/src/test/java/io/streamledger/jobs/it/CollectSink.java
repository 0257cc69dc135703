package io.streamledger.jobs.it;

import io.streamledger.sinks.posting.PostingOutcomeListener;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/** Collects elements into a static, named queue (MiniCluster shares the test JVM). */
public final class CollectSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;
    private static final ConcurrentHashMap<String, ConcurrentLinkedQueue<Object>> QUEUES =
            new ConcurrentHashMap<>();

    private final String name;

    public CollectSink(String name) {
        this.name = name;
        QUEUES.put(name, new ConcurrentLinkedQueue<>());
    }

    /** A posting-sink listener collecting every outcome into the queue {@code name}. */
    public static PostingOutcomeListener listener(String name) {
        QUEUES.put(name, new ConcurrentLinkedQueue<>());
        return o -> QUEUES.get(name).add(o);
    }

    @SuppressWarnings("unchecked")
    public static <T> Collection<T> values(String name) {
        return (Collection<T>) (Collection<?>) QUEUES.get(name);
    }

    @Override
    @Deprecated
    public SinkWriter<T> createWriter(InitContext context) {
        return writer();
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        return writer();
    }

    private SinkWriter<T> writer() {
        ConcurrentLinkedQueue<Object> q = QUEUES.get(name);
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context context) {
                q.add(element);
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
