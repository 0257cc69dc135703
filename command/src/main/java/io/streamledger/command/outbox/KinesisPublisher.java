package io.streamledger.command.outbox;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResultEntry;

/**
 * Publishes outbox events to a Kinesis stream, partition key = aggregate id (AP16, CS03): one
 * PutRecord, or one PutRecords whose per-record errors are returned, not thrown.
 */
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

    @Override
    public List<Result> publishAll(List<Entry> entries) {
        if (entries.size() > MAX_RECORDS_PER_CALL) {
            throw new IllegalArgumentException(
                    entries.size() + " records exceed PutRecords' " + MAX_RECORDS_PER_CALL);
        }
        List<PutRecordsRequestEntry> records = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            records.add(
                    PutRecordsRequestEntry.builder()
                            .partitionKey(e.partitionKey())
                            .data(SdkBytes.fromByteArrayUnsafe(e.data()))
                            .build());
        }
        PutRecordsResponse r = client.putRecords(b -> b.streamName(stream).records(records));
        if (r.records().size() != entries.size()) {
            throw new IllegalStateException(
                    "PutRecords answered " + r.records().size() + " of " + entries.size());
        }
        List<Result> out = new ArrayList<>(entries.size());
        for (PutRecordsResultEntry re : r.records()) {
            out.add(
                    re.errorCode() == null
                            ? Result.acked(new Ack(re.sequenceNumber(), re.shardId()))
                            : Result.failed(re.errorCode() + ": " + re.errorMessage()));
        }
        return out;
    }
}
