package io.streamledger.sinks.versioned;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One guarded write of a whole projected item at a source version: the request entry of the
 * versioned sink (seed CS06, AP13: the version stops stale order, AP07 projection update).
 *
 * <p>A write carries the complete projected state of the item at {@code sourceVersion}, not a
 * delta: that is what lets the sink drop older writes to the same item (coalescing) and lets a
 * replay after a restore be a no-op.
 */
public final class VersionedWrite implements Serializable {
    private static final long serialVersionUID = 1L;

    /** DynamoDB's limit on key attributes: partition key plus optional sort key. */
    static final int MAX_KEY_ATTRIBUTES = 2;

    private final String tableName;
    private final Map<String, AttributeValue> key;
    private final Map<String, AttributeValue> attributes;
    private final long sourceVersion;
    private final @Nullable ExtraCondition extraCondition;

    /** How often this entry has already been sent and come back retryable; not part of state. */
    private final transient int attempt;

    private VersionedWrite(
            String tableName,
            Map<String, AttributeValue> key,
            Map<String, AttributeValue> attributes,
            long sourceVersion,
            @Nullable ExtraCondition extraCondition,
            int attempt) {
        this.tableName = tableName;
        this.key = key;
        this.attributes = attributes;
        this.sourceVersion = sourceVersion;
        this.extraCondition = extraCondition;
        this.attempt = attempt;
    }

    /**
     * A write of {@code attributes} to the item {@code key} of {@code tableName} at {@code
     * sourceVersion}. Key and attribute maps are copied into name order.
     *
     * @throws IllegalArgumentException for an empty table name, no key, more than two key
     *     attributes, a negative version, or an attribute that repeats a key attribute
     */
    public static VersionedWrite of(
            String tableName,
            Map<String, AttributeValue> key,
            Map<String, AttributeValue> attributes,
            long sourceVersion,
            @Nullable ExtraCondition extraCondition) {
        if (tableName == null || tableName.isBlank()) {
            throw new IllegalArgumentException("VersionedWrite needs a table name");
        }
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(attributes, "attributes");
        if (key.isEmpty() || key.size() > MAX_KEY_ATTRIBUTES) {
            throw new IllegalArgumentException(
                    "VersionedWrite key must have 1 or 2 attributes, got " + key.keySet());
        }
        if (sourceVersion < 0) {
            throw new IllegalArgumentException(
                    "sourceVersion must be >= 0, got " + sourceVersion + " for " + key);
        }
        for (String name : attributes.keySet()) {
            if (key.containsKey(name)) {
                throw new IllegalArgumentException(
                        "attribute '" + name + "' is a key attribute; keys are not updatable");
            }
        }
        return new VersionedWrite(
                tableName,
                Collections.unmodifiableMap(new TreeMap<>(key)),
                Collections.unmodifiableMap(new TreeMap<>(attributes)),
                sourceVersion,
                extraCondition,
                0);
    }

    /** Same as {@link #of} without an extra condition. */
    public static VersionedWrite of(
            String tableName,
            Map<String, AttributeValue> key,
            Map<String, AttributeValue> attributes,
            long sourceVersion) {
        return of(tableName, key, attributes, sourceVersion, null);
    }

    /** This write, marked as sent once more (for backoff and the retry limit). */
    VersionedWrite nextAttempt() {
        return new VersionedWrite(
                tableName, key, attributes, sourceVersion, extraCondition, attempt + 1);
    }

    public String tableName() {
        return tableName;
    }

    /** Key attributes in name order. */
    public Map<String, AttributeValue> key() {
        return key;
    }

    /** Attributes to set, in name order; never contains a key attribute. */
    public Map<String, AttributeValue> attributes() {
        return attributes;
    }

    public long sourceVersion() {
        return sourceVersion;
    }

    public @Nullable ExtraCondition extraCondition() {
        return extraCondition;
    }

    /** Number of earlier retryable failures of this entry since it was buffered or restored. */
    public int attempt() {
        return attempt;
    }

    /** Equality ignores {@link #attempt()}: two writes are equal if they would send the same. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VersionedWrite)) {
            return false;
        }
        VersionedWrite that = (VersionedWrite) o;
        return sourceVersion == that.sourceVersion
                && tableName.equals(that.tableName)
                && key.equals(that.key)
                && attributes.equals(that.attributes)
                && Objects.equals(extraCondition, that.extraCondition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tableName, key, attributes, sourceVersion, extraCondition);
    }

    @Override
    public String toString() {
        return "VersionedWrite{" + tableName + " " + key + " v" + sourceVersion + "}";
    }
}
