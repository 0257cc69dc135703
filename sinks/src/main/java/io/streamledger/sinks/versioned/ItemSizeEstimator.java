package io.streamledger.sinks.versioned;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Approximate DynamoDB item size of a write, by the service's sizing rules (seed capacity model
 * AMP04): used to bound batch bytes and to reject writes above the 400 KB item limit early.
 */
public final class ItemSizeEstimator {
    /** Bytes DynamoDB counts for the version number attribute's value (upper bound). */
    private static final int VERSION_VALUE_BYTES = 21;

    private ItemSizeEstimator() {}

    public static long sizeOf(VersionedWrite write, WriteGuard guard) {
        long size = mapSize(write.key()) + mapSize(write.attributes());
        size += utf8(guard.versionAttribute()) + VERSION_VALUE_BYTES;
        return size;
    }

    private static long mapSize(Map<String, AttributeValue> map) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> e : map.entrySet()) {
            size += utf8(e.getKey()) + valueSize(e.getValue());
        }
        return size;
    }

    private static long valueSize(AttributeValue v) {
        switch (v.type()) {
            case S:
                return utf8(v.s());
            case N:
                return numberSize(v.n());
            case B:
                return v.b().asByteArrayUnsafe().length;
            case BOOL:
            case NUL:
                return 1;
            case SS:
                return v.ss().stream().mapToLong(ItemSizeEstimator::utf8).sum();
            case NS:
                return v.ns().stream().mapToLong(ItemSizeEstimator::numberSize).sum();
            case BS:
                return v.bs().stream()
                        .mapToLong(b -> ((SdkBytes) b).asByteArrayUnsafe().length)
                        .sum();
            case L:
                return 3 + v.l().stream().mapToLong(e -> 1 + valueSize(e)).sum();
            case M:
                return 3
                        + v.m().entrySet().stream()
                                .mapToLong(e -> 1 + utf8(e.getKey()) + valueSize(e.getValue()))
                                .sum();
            default:
                return 0;
        }
    }

    /** DynamoDB: about one byte per two significant digits plus one. */
    private static long numberSize(String n) {
        long digits = n.chars().filter(Character::isDigit).count();
        return (digits + 1) / 2 + 1;
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
