package io.streamledger.savepoints.compat;

import io.streamledger.jobs.source.RawChange;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.functions.source.SourceFunction;

/**
 * Emits a fixed list and then stays alive until cancelled, so the job is still RUNNING when a
 * savepoint is taken (a finished bounded job cannot take one).
 */
@SuppressWarnings("deprecation")
final class EmitThenIdleSource implements SourceFunction<RawChange> {

    private static final long serialVersionUID = 1L;

    /** RawChange is not Serializable; its fields are shipped and the records rebuilt. */
    private final ArrayList<String[]> meta = new ArrayList<>();

    private final ArrayList<Long> arrivals = new ArrayList<>();
    private final ArrayList<byte[]> data = new ArrayList<>();
    private volatile boolean running = true;

    EmitThenIdleSource(List<RawChange> records) {
        for (RawChange r : records) {
            meta.add(
                    new String[] {
                        r.getTransport(), r.getStream(), r.getShardId(), r.getSequenceNumber()
                    });
            arrivals.add(r.getArrivalMillis());
            data.add(r.getData());
        }
    }

    @Override
    public void run(SourceContext<RawChange> ctx) throws Exception {
        for (int i = 0; i < meta.size(); i++) {
            String[] m = meta.get(i);
            RawChange r = new RawChange(m[0], m[1], m[2], m[3], arrivals.get(i), data.get(i));
            synchronized (ctx.getCheckpointLock()) {
                ctx.collect(r);
            }
        }
        while (running) {
            Thread.sleep(50);
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}
