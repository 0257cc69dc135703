package io.streamledger.sinks.versioned;

import io.streamledger.model.table.Attr;
import java.io.Serializable;
import java.util.Objects;

/**
 * The sink's guard: strategy plus the attribute names it conditions on (seed CS06, AP13).
 *
 * <p>The partition-key attribute is only used in {@code attribute_not_exists}: an item exists
 * exactly when its partition key does.
 */
public final class WriteGuard implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Default partition key attribute of every streamledger table (seed key grammar). */
    public static final String DEFAULT_PARTITION_KEY_ATTRIBUTE = Attr.PK;

    /** Default attribute holding the source version on projected items (seed AP07, AP13). */
    public static final String DEFAULT_VERSION_ATTRIBUTE = Attr.SOURCE_VERSION;

    private final GuardStrategy strategy;
    private final String partitionKeyAttribute;
    private final String versionAttribute;

    private WriteGuard(
            GuardStrategy strategy, String partitionKeyAttribute, String versionAttribute) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.partitionKeyAttribute = requireName(partitionKeyAttribute, "partitionKeyAttribute");
        this.versionAttribute = requireName(versionAttribute, "versionAttribute");
    }

    /** Version guard on {@code PK} / {@code sourceVersion}. */
    public static WriteGuard versionGuard() {
        return versionGuard(DEFAULT_PARTITION_KEY_ATTRIBUTE, DEFAULT_VERSION_ATTRIBUTE);
    }

    public static WriteGuard versionGuard(String partitionKeyAttribute, String versionAttribute) {
        return new WriteGuard(GuardStrategy.VERSION_GUARD, partitionKeyAttribute, versionAttribute);
    }

    /** Create-once guard on {@code PK}; the version is stored under {@code sourceVersion}. */
    public static WriteGuard createOnce() {
        return createOnce(DEFAULT_PARTITION_KEY_ATTRIBUTE, DEFAULT_VERSION_ATTRIBUTE);
    }

    public static WriteGuard createOnce(String partitionKeyAttribute, String versionAttribute) {
        return new WriteGuard(GuardStrategy.CREATE_ONCE, partitionKeyAttribute, versionAttribute);
    }

    private static String requireName(String name, String what) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return name;
    }

    public GuardStrategy strategy() {
        return strategy;
    }

    public String partitionKeyAttribute() {
        return partitionKeyAttribute;
    }

    public String versionAttribute() {
        return versionAttribute;
    }

    @Override
    public String toString() {
        return strategy + "(" + partitionKeyAttribute + ", " + versionAttribute + ")";
    }
}
