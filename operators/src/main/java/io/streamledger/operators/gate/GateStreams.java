package io.streamledger.operators.gate;

import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * What {@link Gate#apply} returns: the applied events in version order per key and every side
 * stream of the gate (AP09/AP13/CS07). Unused side streams cost nothing.
 *
 * @param applied each event applied exactly once per key, versions strictly increasing
 * @param stale {@code version <= current} re-deliveries (counted no-ops)
 * @param duplicates re-deliveries of parked events and eventIds repeated within the horizon
 * @param gapNotices gap opened/closed per key
 * @param gapBreaks gaps older than the SLA, deterministic ids, keys stay parked
 * @param deadLetters invalid, overflowing or conflicting events with their reason
 * @param parkedGaps gap transitions (open, moved, overdue, arrived, skipped) for the durable record
 * @param parkedReplays replayed events parked behind a gap (they apply when it closes)
 */
public record GateStreams(
        DataStream<GateEvent> applied,
        DataStream<GateEvent> stale,
        DataStream<GateEvent> duplicates,
        DataStream<GapNotice> gapNotices,
        DataStream<GapBreak> gapBreaks,
        DataStream<DeadLetter> deadLetters,
        DataStream<ParkedGap> parkedGaps,
        DataStream<ParkedReplay> parkedReplays) {}
