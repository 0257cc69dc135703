package io.streamledger.local.server;

import io.streamledger.local.spi.ApiException;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Checks the SigV4 {@code Authorization} header: any credentials by default; in strict mode the
 * access key id of {@code Credential=AKID/...} must be one of a configured set. Signatures are not
 * verified (local endpoint of the CS01–CS09 stack).
 */
public final class Credentials {
    private final @Nullable Set<String> allowedAccessKeys;

    /**
     * @param allowedAccessKeys null accepts any credentials
     */
    public Credentials(@Nullable Set<String> allowedAccessKeys) {
        this.allowedAccessKeys = allowedAccessKeys == null ? null : Set.copyOf(allowedAccessKeys);
    }

    public void check(@Nullable String authorization) {
        if (allowedAccessKeys == null) {
            return;
        }
        if (authorization == null || authorization.isBlank()) {
            throw new ApiException(
                    "MissingAuthenticationTokenException",
                    400,
                    "Request is missing Authentication Token");
        }
        String akid = accessKeyId(authorization);
        if (akid == null || !allowedAccessKeys.contains(akid)) {
            throw new ApiException(
                    "UnrecognizedClientException",
                    400,
                    "The security token included in the request is invalid.");
        }
    }

    /** The access key id from {@code AWS4-HMAC-SHA256 Credential=AKID/date/region/...}. */
    static @Nullable String accessKeyId(String authorization) {
        int i = authorization.indexOf("Credential=");
        if (i < 0) {
            return null;
        }
        int start = i + "Credential=".length();
        int end = authorization.indexOf('/', start);
        return end < 0 ? null : authorization.substring(start, end).trim();
    }
}
