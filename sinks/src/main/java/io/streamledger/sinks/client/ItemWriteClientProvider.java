package io.streamledger.sinks.client;

import java.io.Serializable;
import org.apache.flink.metrics.MetricGroup;

/**
 * Creates the writer's {@link ItemWriteClient} on the task manager (seed CS06 writer); shipped with
 * the sink, so it must be serializable.
 */
@FunctionalInterface
public interface ItemWriteClientProvider extends Serializable {

    /** A new client allowed {@code maxConcurrency} concurrent requests. */
    ItemWriteClient create(int maxConcurrency);

    /** As {@link #create(int)}, recording its DynamoDB metrics in the writer's {@code metrics}. */
    default ItemWriteClient create(int maxConcurrency, MetricGroup metrics) {
        return create(maxConcurrency);
    }
}
