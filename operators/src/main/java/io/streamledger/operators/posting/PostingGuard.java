package io.streamledger.operators.posting;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Passes the fills the posting rules can turn into a balanced transaction (AP10, CS11) and sends
 * the others to {@link PostingState#REJECTED} with the rules' named reason, so the transaction sink
 * only sees postable fills and a rejected fill never reaches DynamoDB. Stateless and pure.
 */
public final class PostingGuard extends ProcessFunction<TradeFill, TradeFill> {

    private static final long serialVersionUID = 1L;

    private final FillPostingRules rules;
    private transient Counter rejected;
    private transient MetricGroup group;
    private transient Map<PostingRejectedException.Reason, Counter> byReason;

    public PostingGuard(FillPostingRules rules) {
        this.rules = rules;
    }

    @Override
    public void open(OpenContext ctx) {
        group = getRuntimeContext().getMetricGroup().addGroup(PostingState.METRIC_GROUP);
        rejected = group.counter("rejected");
        byReason = new HashMap<>();
    }

    @Override
    public void processElement(TradeFill fill, Context ctx, Collector<TradeFill> out) {
        try {
            rules.plan(fill);
        } catch (PostingRejectedException e) {
            rejected.inc();
            byReason.computeIfAbsent(e.reason(), r -> group.counter("rejected." + r.name())).inc();
            ctx.output(PostingState.REJECTED, rejectedOutcome(fill, e.getMessage(), ctx));
            return;
        }
        out.collect(fill);
    }

    private static PostingOutcome rejectedOutcome(TradeFill fill, String reason, Context ctx) {
        return PostingOutcome.rejected(fill, reason, ctx.timerService().currentProcessingTime());
    }
}
