package io.streamledger.local.server;

import io.streamledger.local.spi.ApiException;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Checks the SigV4 {@code Authorization} header: by default none is needed; when required, a
 * missing header is MissingAuthenticationTokenException and an incomplete one
 * IncompleteSignatureException, as DynamoDB answers; in strict mode the access key id of {@code
 * Credential=AKID/...} must be one of a configured set. Signatures are not verified (local endpoint
 * of the CS01–CS09 stack).
 */
public final class Credentials {
    private final @Nullable Set<String> allowedAccessKeys;
    private final boolean required;

    /**
     * @param allowedAccessKeys null accepts any credentials
     */
    public Credentials(@Nullable Set<String> allowedAccessKeys) {
        this(allowedAccessKeys, allowedAccessKeys != null);
    }

    /**
     * @param allowedAccessKeys null accepts any credentials
     * @param required a request without a well-formed SigV4 header is refused as DynamoDB does
     */
    public Credentials(@Nullable Set<String> allowedAccessKeys, boolean required) {
        this.allowedAccessKeys = allowedAccessKeys == null ? null : Set.copyOf(allowedAccessKeys);
        this.required = required || allowedAccessKeys != null;
    }

    public void check(@Nullable String authorization) {
        if (!required) {
            return;
        }
        if (authorization == null || authorization.isBlank()) {
            throw new ApiException(
                    "MissingAuthenticationTokenException",
                    400,
                    "Request is missing Authentication Token");
        }
        String missing = missingParts(authorization);
        if (!missing.isEmpty()) {
            throw new ApiException(
                    "IncompleteSignatureException",
                    400,
                    missing + "Authorization=" + authorization);
        }
        String akid = accessKeyId(authorization);
        if (allowedAccessKeys != null && (akid == null || !allowedAccessKeys.contains(akid))) {
            throw new ApiException(
                    "UnrecognizedClientException",
                    400,
                    "The security token included in the request is invalid.");
        }
    }

    /** DynamoDB's sentences for each SigV4 parameter the header lacks; empty if complete. */
    private static String missingParts(String authorization) {
        StringBuilder sb = new StringBuilder();
        for (String p : new String[] {"Credential", "Signature", "SignedHeaders"}) {
            if (!authorization.contains(p + "=")) {
                sb.append("Authorization header requires '").append(p).append("' parameter. ");
            }
        }
        return sb.toString();
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
