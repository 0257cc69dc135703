package io.streamledger.command.outbox;

import io.streamledger.command.dynamo.CapacityMeter;
import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Consumed capacity of the relay's DynamoDB calls per AP16 transition (AMP15 claim, AMP16
 * completion, AMP17 retry, AMP18 reschedule) and per discovery call, summed from each call's
 * ReturnConsumedCapacity=INDEXES. Thread-safe.
 */
public final class RelayCapacity {

    /** What a call was for. */
    public enum Use {
        CLAIM,
        COMPLETE,
        REQUEUE,
        RESCHEDULE,
        READY_QUERY,
        LEASE_RECOVERY
    }

    /** Calls, total units and the units charged to secondary indexes. */
    public record Sum(long calls, BigDecimal units, BigDecimal indexUnits) {
        static final Sum ZERO = new Sum(0, BigDecimal.ZERO, BigDecimal.ZERO);

        Sum plus(CapacityMeter m) {
            return new Sum(calls + 1, units.add(m.total()), indexUnits.add(m.indexUnits()));
        }
    }

    private final Map<Use, Sum> sums = new EnumMap<>(Use.class);

    synchronized void add(Use use, CapacityMeter meter) {
        sums.merge(use, Sum.ZERO.plus(meter), (a, b) -> a.plus(meter));
    }

    /** A copy of the sums so far, every use present. */
    public synchronized Map<Use, Sum> snapshot() {
        Map<Use, Sum> out = new LinkedHashMap<>();
        for (Use u : Use.values()) {
            out.put(u, sums.getOrDefault(u, Sum.ZERO));
        }
        return out;
    }
}
