package io.streamledger.operators.recon;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Wires the windowed reconciliation (AP14/AP15): business-time timestamps and watermarks, keyed by
 * tenant, tumbling event-time windows with allowed lateness; batches on the main output, breaks on
 * {@link ReconState#BREAKS}.
 */
public final class Reconciliation {

    private Reconciliation() {}

    /**
     * Business-time timestamps and watermarks for ONE source, per shard of that source ({@link
     * ShardBusinessTimeWatermarks}: the slowest shard that is not quiet rules); apply it to each
     * source before the union so the window's watermark is the minimum over fills and ledger (a
     * fast source must not close a window the other has not delivered yet).
     */
    public static DataStream<ReconEvent> withBusinessTime(
            DataStream<ReconEvent> source, String uid, Duration outOfOrderness, Duration idleness) {
        long ooo = outOfOrderness.toMillis();
        long quiet = idleness.toMillis();
        return source.assignTimestampsAndWatermarks(
                        WatermarkStrategy.<ReconEvent>forGenerator(
                                        ctx ->
                                                new ShardBusinessTimeWatermarks(
                                                        ooo,
                                                        quiet,
                                                        ctx.getInputActivityClock()
                                                                ::relativeTimeMillis))
                                .withTimestampAssigner((e, ts) -> e.eventTimeMillis))
                .uid(uid)
                .name("reconciliation: business-time watermarks (" + uid + ")");
    }

    /**
     * The order ↔ fill check ({@link OrderFillCheck}) over order versions and fills already passed
     * through {@link #withBusinessTime}; its findings join the window input of {@link #apply}.
     */
    public static DataStream<ReconEvent> orderFillFindings(
            DataStream<ReconEvent> ordersAndFills, ReconConfig config) {
        KeySelector<ReconEvent, String> byOrder = OrderFillCheck::key;
        return ordersAndFills
                .filter(OrderFillCheck::isInput)
                .uid(ReconState.ORDER_FILL_FILTER_UID)
                .name("reconciliation: order versions and fills")
                .keyBy(byOrder, Types.STRING)
                .process(new OrderFillCheck(config), ReconState.EVENT)
                .uid(ReconState.ORDER_FILL_UID)
                .name(ReconState.ORDER_FILL_NAME);
    }

    /**
     * Batches on the main output, breaks on {@link ReconState#BREAKS}, records later than the
     * allowed lateness on {@code late}.
     */
    public record Streams(
            SingleOutputStreamOperator<ReconBatch> batches, DataStream<ReconEvent> late) {}

    /**
     * window (fill ↔ ledger) → async Portfolio reads → positions check + batch. The reads run after
     * the window with Flink async I/O (ordered, so batch revisions stay in firing order), against
     * the same rows at about the same time as a read inside the window would.
     *
     * @param events union of sources already passed through {@link #withBusinessTime}
     */
    public static Streams apply(
            DataStream<ReconEvent> events, ReconConfig config, PositionLookup positions) {
        KeySelector<ReconEvent, String> byTenant = e -> e.tenant;
        SingleOutputStreamOperator<ReconEvent> routed =
                events.keyBy(byTenant, Types.STRING)
                        .process(new LateRecordRouting(config), ReconState.EVENT)
                        .uid(ReconState.LATE_ROUTING_UID)
                        .name("reconciliation: late records into the next batch revision");
        SingleOutputStreamOperator<ReconWindowResult> fired =
                routed.keyBy(byTenant, Types.STRING)
                        .window(new BusinessTimeWindows(config.windowMillis()))
                        .allowedLateness(Duration.ofMillis(config.allowedLatenessMillis()))
                        .trigger(new BatchTrigger(config.allowedLatenessMillis()))
                        .sideOutputLateData(ReconState.LATE)
                        .process(new ReconWindowFunction(config), ReconState.RESULT)
                        .uid(ReconState.WINDOW_UID)
                        .name(ReconState.WINDOW_NAME);
        SingleOutputStreamOperator<ReconBatch> batches =
                AsyncDataStream.orderedWait(
                                fired,
                                new PositionReads(positions),
                                ReconState.POSITIONS_TIMEOUT_MILLIS,
                                TimeUnit.MILLISECONDS,
                                ReconState.POSITIONS_CAPACITY)
                        .returns(ReconState.RESULT)
                        .uid(ReconState.POSITIONS_UID)
                        .name(ReconState.POSITIONS_NAME)
                        .process(new ReconFinish(config), ReconState.BATCH)
                        .uid(ReconState.FINISH_UID)
                        .name(ReconState.FINISH_NAME);
        return new Streams(
                batches,
                routed.getSideOutput(ReconState.LATE).union(fired.getSideOutput(ReconState.LATE)));
    }
}
