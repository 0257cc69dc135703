package io.streamledger.operators.gate;

import java.util.Objects;

/** An event the gate could not hold, with its reason and detail, so nothing is lost (AP13). */
public class DeadLetter {

    private DeadLetterReason reason;
    private String detail;
    private long atMillis;
    private GateEvent event;

    /** For Flink's POJO serializer. */
    public DeadLetter() {}

    public DeadLetter(DeadLetterReason reason, String detail, long atMillis, GateEvent event) {
        this.reason = reason;
        this.detail = detail;
        this.atMillis = atMillis;
        this.event = event;
    }

    public DeadLetterReason getReason() {
        return reason;
    }

    public void setReason(DeadLetterReason reason) {
        this.reason = reason;
    }

    public String getDetail() {
        return detail;
    }

    public void setDetail(String detail) {
        this.detail = detail;
    }

    public long getAtMillis() {
        return atMillis;
    }

    public void setAtMillis(long atMillis) {
        this.atMillis = atMillis;
    }

    public GateEvent getEvent() {
        return event;
    }

    public void setEvent(GateEvent event) {
        this.event = event;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DeadLetter)) {
            return false;
        }
        DeadLetter that = (DeadLetter) o;
        return atMillis == that.atMillis
                && reason == that.reason
                && Objects.equals(detail, that.detail)
                && Objects.equals(event, that.event);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reason, detail, atMillis, event);
    }

    @Override
    public String toString() {
        return "DeadLetter{" + reason + ": " + detail + ", " + event + '}';
    }
}
