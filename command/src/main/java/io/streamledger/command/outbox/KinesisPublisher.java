package io.streamledger.command.outbox;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordResponse;

/** Publishes outbox events to a Kinesis stream, partition key = aggregate id (AP16, CS03). */
public final class KinesisPublisher implements Publisher {

    private final KinesisClient client;
    private final String stream;

    public KinesisPublisher(KinesisClient client, String stream) {
        this.client = client;
        this.stream = stream;
    }

    @Override
    public Ack publish(String partitionKey, byte[] data) {
        PutRecordResponse r =
                client.putRecord(
                        b ->
                                b.streamName(stream)
                                        .partitionKey(partitionKey)
                                        .data(SdkBytes.fromByteArray(data)));
        return new Ack(r.sequenceNumber(), r.shardId());
    }
}
