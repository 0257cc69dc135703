package io.streamledger.command.dynamo;

import java.util.List;

/**
 * The seed's write-capacity rule for a TransactWriteItems (AMP05-AMP07, AMP14): every targeted base
 * item rounds up to whole KiB and costs two underlying writes; each GSI entry the commit puts or
 * deletes costs one ordinary unit (index entries under 1 KiB, never doubled).
 */
public final class TransactionCapacity {

    private TransactionCapacity() {}

    public static long baseUnits(List<Integer> itemSizesBytes) {
        long units = 0;
        for (int size : itemSizesBytes) {
            units += 2L * Math.max(1, (size + 1023) / 1024);
        }
        return units;
    }

    public static long totalUnits(List<Integer> itemSizesBytes, int gsiEntriesWritten) {
        return baseUnits(itemSizesBytes) + gsiEntriesWritten;
    }
}
