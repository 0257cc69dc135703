package io.streamledger.jobs.source;

import java.util.Arrays;
import java.util.Objects;

/**
 * One record exactly as a transport delivered it, bytes untouched, so a record that fails to parse
 * can be dead-lettered with its payload (DESIGN "Change records": one model, two transports).
 *
 * <p>A Flink POJO: serialized by the PojoSerializer, never Kryo.
 */
public class RawChange {

    /** {@link io.streamledger.model.change.Transport} name. */
    private String transport;

    /** Stream ARN (or name) it was read from. */
    private String stream;

    private String shardId;
    private String sequenceNumber;

    /** Kinesis approximate arrival (ms); for DynamoDB Streams the connector's arrival time. */
    private long arrivalMillis;

    private byte[] data;

    /** For Flink's POJO serializer. */
    public RawChange() {}

    public RawChange(
            String transport,
            String stream,
            String shardId,
            String sequenceNumber,
            long arrivalMillis,
            byte[] data) {
        this.transport = transport;
        this.stream = stream;
        this.shardId = shardId;
        this.sequenceNumber = sequenceNumber;
        this.arrivalMillis = arrivalMillis;
        this.data = data;
    }

    public String getTransport() {
        return transport;
    }

    public void setTransport(String transport) {
        this.transport = transport;
    }

    public String getStream() {
        return stream;
    }

    public void setStream(String stream) {
        this.stream = stream;
    }

    public String getShardId() {
        return shardId;
    }

    public void setShardId(String shardId) {
        this.shardId = shardId;
    }

    public String getSequenceNumber() {
        return sequenceNumber;
    }

    public void setSequenceNumber(String sequenceNumber) {
        this.sequenceNumber = sequenceNumber;
    }

    public long getArrivalMillis() {
        return arrivalMillis;
    }

    public void setArrivalMillis(long arrivalMillis) {
        this.arrivalMillis = arrivalMillis;
    }

    public byte[] getData() {
        return data;
    }

    public void setData(byte[] data) {
        this.data = data;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawChange r
                && arrivalMillis == r.arrivalMillis
                && Objects.equals(transport, r.transport)
                && Objects.equals(stream, r.stream)
                && Objects.equals(shardId, r.shardId)
                && Objects.equals(sequenceNumber, r.sequenceNumber)
                && Arrays.equals(data, r.data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(stream, shardId, sequenceNumber);
    }

    @Override
    public String toString() {
        return "RawChange{" + transport + " " + shardId + "@" + sequenceNumber + "}";
    }
}
