package io.streamledger.jobs.source;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * A source record that could not be turned into a business event, with its raw payload and the
 * reason, so bad input loses nothing (CS08; the reason is a named {@code DeadLetterReason}).
 */
public class SourceDeadLetter {

    private String reason;
    private String detail;
    private String transport;
    private String stream;
    private String shardId;
    private String sequenceNumber;

    /** "utf-8" or "base64": how {@link #payload} encodes the raw bytes. */
    private String payloadEncoding;

    private String payload;
    private long atMillis;

    /** For Flink's POJO serializer. */
    public SourceDeadLetter() {}

    /** A dead letter of {@code raw}; the payload is UTF-8 text when valid, else base64. */
    public static SourceDeadLetter of(RawChange raw, String reason, String detail, long atMillis) {
        SourceDeadLetter d = new SourceDeadLetter();
        d.reason = reason;
        d.detail = detail;
        d.transport = raw.getTransport();
        d.stream = raw.getStream();
        d.shardId = raw.getShardId();
        d.sequenceNumber = raw.getSequenceNumber();
        d.atMillis = atMillis;
        byte[] data = raw.getData() == null ? new byte[0] : raw.getData();
        try {
            d.payload =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(data))
                            .toString();
            d.payloadEncoding = "utf-8";
        } catch (CharacterCodingException e) {
            d.payload = Base64.getEncoder().encodeToString(data);
            d.payloadEncoding = "base64";
        }
        return d;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getDetail() {
        return detail;
    }

    public void setDetail(String detail) {
        this.detail = detail;
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

    public String getPayloadEncoding() {
        return payloadEncoding;
    }

    public void setPayloadEncoding(String payloadEncoding) {
        this.payloadEncoding = payloadEncoding;
    }

    public String getPayload() {
        return payload;
    }

    public void setPayload(String payload) {
        this.payload = payload;
    }

    public long getAtMillis() {
        return atMillis;
    }

    public void setAtMillis(long atMillis) {
        this.atMillis = atMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SourceDeadLetter d
                && atMillis == d.atMillis
                && Objects.equals(reason, d.reason)
                && Objects.equals(detail, d.detail)
                && Objects.equals(shardId, d.shardId)
                && Objects.equals(sequenceNumber, d.sequenceNumber)
                && Objects.equals(payload, d.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reason, shardId, sequenceNumber);
    }

    @Override
    public String toString() {
        return "SourceDeadLetter{"
                + reason
                + ": "
                + detail
                + " @"
                + shardId
                + "/"
                + sequenceNumber
                + "}";
    }
}
