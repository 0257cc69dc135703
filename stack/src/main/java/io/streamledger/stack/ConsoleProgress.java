package io.streamledger.stack;

import java.util.Locale;

/**
 * Plain-console progress bar of the workload: one redrawn line on a terminal, a line every five
 * seconds otherwise; shows requests issued, admissions per route (cancels included) and when the
 * first projection row (AP07) became visible.
 */
final class ConsoleProgress implements AutoCloseable {

    private static final int WIDTH = 30;

    private final WorkloadGenerator generator;
    private final FreshnessProbe probe;
    private final long startNanos;
    private final boolean enabled;
    private final boolean terminal = System.console() != null;
    private final Thread thread;
    private volatile boolean closed;

    ConsoleProgress(
            WorkloadGenerator generator, FreshnessProbe probe, long startNanos, boolean enabled) {
        this.generator = generator;
        this.probe = probe;
        this.startNanos = startNanos;
        this.enabled = enabled;
        this.thread = new Thread(this::loop, "progress");
        this.thread.setDaemon(true);
    }

    void start() {
        if (enabled) {
            thread.start();
        }
    }

    private void loop() {
        long lastPlain = 0;
        while (!closed) {
            long now = System.nanoTime();
            if (terminal) {
                System.out.print("\r" + line());
                System.out.flush();
            } else if (now - lastPlain > 5_000_000_000L) {
                System.out.println(line());
                lastPlain = now;
            }
            try {
                Thread.sleep(terminal ? 250 : 500);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    String line() {
        long planned = Math.max(1, generator.plannedOperations());
        long issued = generator.issued();
        int pct = (int) Math.round(generator.elapsedFraction() * 100);
        int filled = pct * WIDTH / 100;
        long first = probe.firstRowNanos();
        String firstRow =
                first < 0
                        ? "first projection row: waiting"
                        : String.format(
                                Locale.ROOT,
                                "first projection row after %.1f s",
                                (first - startNanos) / 1e9);
        return String.format(
                Locale.ROOT,
                "[%s%s] %3d%% %d/%d req (%.0f/s) | orders %d fills %d cancels %d ledger %d | %s",
                "#".repeat(filled),
                ".".repeat(WIDTH - filled),
                pct,
                issued,
                planned,
                generator.achievedRate(),
                generator.routes.get(WorkloadGenerator.ROUTE_ORDER).admitted.sum(),
                generator.routes.get(WorkloadGenerator.ROUTE_FILL).admitted.sum(),
                generator.routes.get(WorkloadGenerator.ROUTE_CANCEL).admitted.sum(),
                generator.routes.get(WorkloadGenerator.ROUTE_LEDGER).admitted.sum(),
                firstRow);
    }

    @Override
    public void close() {
        if (!enabled) {
            return;
        }
        closed = true;
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.out.println((terminal ? "\r" : "") + line());
    }
}
