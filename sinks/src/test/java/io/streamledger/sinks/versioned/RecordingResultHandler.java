package io.streamledger.sinks.versioned;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.connector.base.sink.writer.ResultHandler;

/** Captures the single outcome a submitter reports for one flush. */
final class RecordingResultHandler implements ResultHandler<VersionedWrite> {
    /** What the handler was told. */
    static final class Outcome {
        final boolean complete;
        final Exception fatal;
        final List<VersionedWrite> retry;

        Outcome(boolean complete, Exception fatal, List<VersionedWrite> retry) {
            this.complete = complete;
            this.fatal = fatal;
            this.retry = retry;
        }
    }

    private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    private int calls;

    @Override
    public synchronized void complete() {
        calls++;
        outcome.complete(new Outcome(true, null, null));
    }

    @Override
    public synchronized void completeExceptionally(Exception e) {
        calls++;
        outcome.complete(new Outcome(false, e, null));
    }

    @Override
    public synchronized void retryForEntries(List<VersionedWrite> entries) {
        calls++;
        outcome.complete(new Outcome(false, null, entries));
    }

    Outcome await() throws Exception {
        return outcome.get(10, TimeUnit.SECONDS);
    }

    synchronized int calls() {
        return calls;
    }
}
