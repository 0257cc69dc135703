package io.streamledger.model.keys;

import javax.annotation.Nullable;

/**
 * A key component or a whole PK/SK string that does not follow the IDX01–IDX19 grammar; names the
 * offending component (the seed placeholder, e.g. {@code id}, {@code at}) when there is one.
 */
public final class KeyFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final @Nullable String component;

    public KeyFormatException(@Nullable String component, String message) {
        super(component == null ? message : "component '" + component + "': " + message);
        this.component = component;
    }

    /** The seed placeholder that failed (e.g. {@code id}), or null for a whole-key problem. */
    public @Nullable String component() {
        return component;
    }
}
