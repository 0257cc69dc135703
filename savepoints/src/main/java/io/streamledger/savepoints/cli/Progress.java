package io.streamledger.savepoints.cli;

import java.io.PrintStream;

/**
 * Progress of a long CLI step (CS09 runbook steps): items so far, rate and, when the total is
 * known, ETA; printed at most once a second and once at the end.
 */
final class Progress {

    private final PrintStream out;
    private final String what;
    private final long total;
    private final long start = System.nanoTime();
    private long count;
    private long lastPrint = start;

    Progress(PrintStream out, String what, long total) {
        this.out = out;
        this.what = what;
        this.total = total;
    }

    void add(long n) {
        set(count + n);
    }

    /** The absolute count so far (e.g. a running job's accumulator). */
    void set(long n) {
        count = n;
        long now = System.nanoTime();
        if (now - lastPrint >= 1_000_000_000L) {
            lastPrint = now;
            out.println(line(now));
        }
    }

    long done() {
        out.println(line(System.nanoTime()) + " done");
        return count;
    }

    private String line(long now) {
        double secs = Math.max(1e-9, (now - start) / 1e9);
        double rate = count / secs;
        StringBuilder b = new StringBuilder(what).append(": ").append(count);
        if (total > 0) {
            b.append('/').append(total);
        }
        b.append(String.format(" items, %.0f items/s", rate));
        if (total > 0 && rate > 0 && count < total) {
            b.append(String.format(", ETA %.0f s", (total - count) / rate));
        }
        return b.append(String.format(" (%.1f s)", secs)).toString();
    }
}
