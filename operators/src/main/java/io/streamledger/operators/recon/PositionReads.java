package io.streamledger.operators.recon;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * Reads the AP07 Portfolio row of every securities authority of a window firing (AP14 positions
 * check) with Flink async I/O after the window, so no window function blocks on DynamoDB; the rows
 * are attached to the result in authority order and judged by {@link ReconFinish}.
 */
public final class PositionReads extends RichAsyncFunction<ReconWindowResult, ReconWindowResult> {

    private static final long serialVersionUID = 1L;

    private final PositionLookup positions;

    public PositionReads(PositionLookup positions) {
        this.positions = positions;
    }

    @Override
    public void open(OpenContext ctx) {
        positions.open();
    }

    @Override
    public void close() {
        positions.close();
    }

    @Override
    public void asyncInvoke(ReconWindowResult r, ResultFuture<ReconWindowResult> out) {
        int n = r.authorities.length;
        @SuppressWarnings("unchecked")
        CompletableFuture<PositionView>[] reads = new CompletableFuture[n];
        try {
            for (int i = 0; i < n; i++) {
                AuthorityFact a = r.authorities[i].authority();
                reads[i] = positions.readAsync(r.tenant, a.account(), a.asset());
            }
        } catch (RuntimeException e) {
            out.completeExceptionally(e);
            return;
        }
        CompletableFuture.allOf(reads)
                .whenComplete(
                        (ok, error) -> {
                            if (error != null) {
                                out.completeExceptionally(error);
                                return;
                            }
                            PositionView[] views = new PositionView[n];
                            for (int i = 0; i < n; i++) {
                                views[i] = reads[i].join();
                            }
                            r.attach(views);
                            out.complete(List.of(r));
                        });
    }
}
