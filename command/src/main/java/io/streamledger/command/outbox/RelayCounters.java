package io.streamledger.command.outbox;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one relay did per AP16 transition and where its rounds' time went (per-call latencies and
 * what the round thread waited for). Thread-safe.
 */
final class RelayCounters {
    final LongAdder claimed = new LongAdder();
    final LongAdder claimLost = new LongAdder();
    final LongAdder claimErrors = new LongAdder();
    final LongAdder published = new LongAdder();
    final LongAdder publishFailed = new LongAdder();
    final LongAdder putCalls = new LongAdder();
    final LongAdder held = new LongAdder();
    final LongAdder completed = new LongAdder();
    final LongAdder completeLost = new LongAdder();
    final LongAdder completeErrors = new LongAdder();
    final LongAdder retried = new LongAdder();
    final LongAdder rescheduled = new LongAdder();
    final LongAdder leasesRecovered = new LongAdder();
    final LongAdder claimNanos = new LongAdder();
    final LongAdder putNanos = new LongAdder();
    final LongAdder completeNanos = new LongAdder();
    final LongAdder readNanos = new LongAdder();
    final LongAdder waitClaimsNanos = new LongAdder();
    final LongAdder waitPutsNanos = new LongAdder();
    final LongAdder waitBothNanos = new LongAdder();
    final LongAccumulator putsInFlightMax = new LongAccumulator(Math::max, 0);

    Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("claimed", claimed.sum());
        m.put("claimLost", claimLost.sum());
        m.put("claimErrors", claimErrors.sum());
        m.put("published", published.sum());
        m.put("publishFailed", publishFailed.sum());
        m.put("putCalls", putCalls.sum());
        m.put("held", held.sum());
        m.put("completed", completed.sum());
        m.put("completeLost", completeLost.sum());
        m.put("completeErrors", completeErrors.sum());
        m.put("retried", retried.sum());
        m.put("rescheduled", rescheduled.sum());
        m.put("leasesRecovered", leasesRecovered.sum());
        m.put("claimCallMicros", claimNanos.sum() / 1_000);
        m.put("putCallMicros", putNanos.sum() / 1_000);
        m.put("completeCallMicros", completeNanos.sum() / 1_000);
        m.put("readyReadMicros", readNanos.sum() / 1_000);
        m.put("waitClaimsMicros", waitClaimsNanos.sum() / 1_000);
        m.put("waitPutsMicros", waitPutsNanos.sum() / 1_000);
        m.put("waitBothMicros", waitBothNanos.sum() / 1_000);
        m.put("putsInFlightMax", putsInFlightMax.get());
        return m;
    }
}
