package io.streamledger.operators.recon;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;

/**
 * Wires the windowed reconciliation (AP14/AP15): business-time timestamps and watermarks, keyed by
 * tenant, tumbling event-time windows with allowed lateness; batches on the main output, breaks on
 * {@link ReconState#BREAKS}.
 */
public final class Reconciliation {

    private Reconciliation() {}

    /**
     * Business-time timestamps and watermarks for ONE source; apply it to each source before the
     * union so the window's watermark is the minimum over fills and ledger (a fast source must not
     * close a window the other has not delivered yet).
     */
    public static DataStream<ReconEvent> withBusinessTime(
            DataStream<ReconEvent> source, String uid, Duration outOfOrderness, Duration idleness) {
        return source.assignTimestampsAndWatermarks(
                        WatermarkStrategy.<ReconEvent>forBoundedOutOfOrderness(outOfOrderness)
                                .withTimestampAssigner((e, ts) -> e.eventTimeMillis)
                                .withIdleness(idleness))
                .uid(uid)
                .name("reconciliation: business-time watermarks (" + uid + ")");
    }

    /**
     * @param events union of sources already passed through {@link #withBusinessTime}
     */
    public static SingleOutputStreamOperator<ReconBatch> apply(
            DataStream<ReconEvent> events, ReconConfig config, PositionLookup positions) {
        KeySelector<ReconEvent, String> byTenant = e -> e.tenant;
        return events.keyBy(byTenant, Types.STRING)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(config.windowMillis())))
                .allowedLateness(Duration.ofMillis(config.allowedLatenessMillis()))
                .process(new ReconWindowFunction(config, positions), ReconState.BATCH)
                .uid(ReconState.WINDOW_UID)
                .name(ReconState.WINDOW_NAME);
    }
}
