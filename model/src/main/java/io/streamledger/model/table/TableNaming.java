package io.streamledger.model.table;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Physical table names: {@code prefix + logicalName}, plus {@code _v<version>} for a versioned
 * table (Portfolio, CS09). Tests use a unique prefix per test; production uses an environment
 * prefix such as {@code prod-} or none.
 *
 * @param prefix prepended to every logical name; may be empty
 */
public record TableNaming(String prefix) {
    // declared before NONE: static initialisers run in order
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.-]{0,200}");

    /** No prefix: physical names equal logical names. */
    public static final TableNaming NONE = new TableNaming("");

    public TableNaming {
        Objects.requireNonNull(prefix, "prefix");
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException(
                    "table prefix '" + prefix + "' must match [A-Za-z0-9_.-]{0,200}");
        }
    }

    /** The physical name of an unversioned table. */
    public String physicalName(TableSpec spec) {
        if (spec.versioned()) {
            throw new IllegalArgumentException(
                    spec.logicalName() + " is versioned; use physicalName(spec, version)");
        }
        return prefix + spec.logicalName();
    }

    /** The physical name of one namespace version, e.g. {@code Portfolio_v3}. */
    public String physicalName(TableSpec spec, int version) {
        if (!spec.versioned()) {
            throw new IllegalArgumentException(spec.logicalName() + " is not versioned");
        }
        if (version < 1) {
            throw new IllegalArgumentException("namespace version must be >= 1, got " + version);
        }
        return prefix + spec.logicalName() + "_v" + version;
    }
}
