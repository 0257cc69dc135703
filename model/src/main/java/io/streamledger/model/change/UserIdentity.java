package io.streamledger.model.change;

import javax.annotation.Nullable;

/**
 * The {@code userIdentity} of a record; present for deletes made by the TTL service (seed: "TTL
 * deletions enter the originating Region's Stream as service deletes").
 *
 * @param principalId {@code dynamodb.amazonaws.com} for TTL
 * @param type {@code Service} for TTL
 */
public record UserIdentity(@Nullable String principalId, @Nullable String type) {
    /** TTL service principal. */
    public static final String TTL_PRINCIPAL = "dynamodb.amazonaws.com";

    /** True for a TTL (service) delete. */
    public boolean isTtlService() {
        return TTL_PRINCIPAL.equals(principalId) && "Service".equals(type);
    }
}
