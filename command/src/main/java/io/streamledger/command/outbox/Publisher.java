package io.streamledger.command.outbox;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/** The broker the AP16 relay publishes to; returns its durable acknowledgement (CS03). */
public interface Publisher {

    /** Kinesis PutRecords limit; the relay never sends a larger call. */
    int MAX_RECORDS_PER_CALL = 500;

    /** Kinesis PutRecords request size limit (data plus partition keys). */
    long MAX_BYTES_PER_CALL = 5L * 1024 * 1024;

    /** The broker's acknowledgement: Kinesis sequence number and shard. */
    record Ack(String sequenceNumber, String shardId) {}

    /** One record of a batch: the partition key (the aggregate id) and the payload. */
    record Entry(String partitionKey, byte[] data) {}

    /** The outcome of one entry: an acknowledgement, or the broker's error for that entry. */
    record Result(@Nullable Ack ack, @Nullable String error) {
        public static Result acked(Ack ack) {
            return new Result(ack, null);
        }

        public static Result failed(String error) {
            return new Result(null, error);
        }

        public boolean ok() {
            return ack != null;
        }
    }

    /** Publishes one event; throws on any failure (the relay then re-queues it). */
    Ack publish(String partitionKey, byte[] data);

    /**
     * Publishes a batch (at most {@link #MAX_RECORDS_PER_CALL}); one result per entry, in order. An
     * entry may fail while others succeed; a failure of the whole call may throw instead. The relay
     * never puts two entries of one partition key into one call, so any entry order is fine.
     */
    default List<Result> publishAll(List<Entry> entries) {
        List<Result> out = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            try {
                out.add(Result.acked(publish(e.partitionKey(), e.data())));
            } catch (RuntimeException failure) {
                out.add(Result.failed(RelayRound.describe(failure)));
            }
        }
        return out;
    }
}
