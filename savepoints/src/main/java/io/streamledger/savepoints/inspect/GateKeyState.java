package io.streamledger.savepoints.inspect;

/**
 * One source key as the next-version gate's keyed state holds it in a savepoint (AP13/CS07): last
 * applied version, parked events and the version an open gap waits for (0 = none). A Flink POJO.
 */
public class GateKeyState {

    private String sourceKey;
    private long version;
    private int parked;
    private long missingVersion;

    public GateKeyState() {}

    public GateKeyState(String sourceKey, long version, int parked, long missingVersion) {
        this.sourceKey = sourceKey;
        this.version = version;
        this.parked = parked;
        this.missingVersion = missingVersion;
    }

    public String getSourceKey() {
        return sourceKey;
    }

    public void setSourceKey(String sourceKey) {
        this.sourceKey = sourceKey;
    }

    public long getVersion() {
        return version;
    }

    public void setVersion(long version) {
        this.version = version;
    }

    public int getParked() {
        return parked;
    }

    public void setParked(int parked) {
        this.parked = parked;
    }

    public long getMissingVersion() {
        return missingVersion;
    }

    public void setMissingVersion(long missingVersion) {
        this.missingVersion = missingVersion;
    }
}
