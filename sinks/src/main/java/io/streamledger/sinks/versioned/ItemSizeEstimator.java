package io.streamledger.sinks.versioned;

import io.streamledger.aws.items.Av;
import java.nio.charset.StandardCharsets;

/**
 * Approximate DynamoDB item size of a write, by the service's sizing rules (seed capacity model
 * AMP04, sized by {@link Av#itemSize}): used to bound batch bytes and to reject writes above the
 * 400 KB item limit early.
 */
public final class ItemSizeEstimator {
    /** Bytes DynamoDB counts for the version number attribute's value (upper bound). */
    private static final int VERSION_VALUE_BYTES = 21;

    private ItemSizeEstimator() {}

    public static long sizeOf(VersionedWrite write, WriteGuard guard) {
        long size = (long) Av.itemSize(write.key()) + Av.itemSize(write.attributes());
        size += utf8(guard.versionAttribute()) + VERSION_VALUE_BYTES;
        return size;
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
