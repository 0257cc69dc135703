package io.streamledger.command.outbox;

/** The broker the AP16 relay publishes to; returns its durable acknowledgement (CS03). */
public interface Publisher {

    /** The broker's acknowledgement: Kinesis sequence number and shard. */
    record Ack(String sequenceNumber, String shardId) {}

    /** Publishes one event; throws on any failure (the relay then re-queues it). */
    Ack publish(String partitionKey, byte[] data);
}
