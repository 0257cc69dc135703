package io.streamledger.local.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** What the engine tells its extensions about tables, and a consistent read of one table. */
public interface TableCatalog {

    /** Description of a table as DescribeTable's {@code Table} object; empty if absent. */
    Optional<ObjectNode> describe(String table);

    List<String> tableNames();

    /**
     * Reads every item of the table as of one commit point, consistently (no write interleaves),
     * passing each item in wire form to the consumer; returns the number of items read. Extensions
     * use it for export; {@code atCommit} runs inside the same critical section, before the first
     * item, so the caller can record the stream position that the snapshot corresponds to.
     */
    long snapshot(String table, Runnable atCommit, Consumer<ObjectNode> items);
}
