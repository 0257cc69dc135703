package io.streamledger.local.spi;

import java.util.Optional;

/**
 * The engine stores a table's StreamSpecification and asks this to turn it on or off. The Streams
 * extension implements it and answers with the stream ARN and label DescribeTable shows.
 */
public interface StreamSettings {

    /** Stream identity shown as {@code LatestStreamArn} / {@code LatestStreamLabel}. */
    record StreamId(String arn, String label) {}

    /** Enables (or re-enables, making a new stream) a stream with the given StreamViewType. */
    StreamId enable(String table, String viewType);

    /** Disables the table's current stream; its records stay readable until retention. */
    void disable(String table);

    /** The current stream of a table, if enabled. */
    Optional<StreamId> current(String table);

    /** Drops everything of a deleted table (its streams become DISABLED). */
    void tableDeleted(String table);
}
