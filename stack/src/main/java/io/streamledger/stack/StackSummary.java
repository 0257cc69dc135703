package io.streamledger.stack;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.streamledger.aws.items.BatchItems;
import io.streamledger.model.contract.AmplificationRow;
import io.streamledger.model.contract.Contract;
import io.streamledger.model.contract.ContractResources;
import io.streamledger.sinks.posting.PostingRetryCause;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;

/**
 * The run's summary: admissions per route, per-job domain metrics (AP09/AP13 applied, duplicate,
 * stale, open gaps, gap breaks), the table audit (CS11 balance, AP07 view == AP12 authority),
 * freshness, consumed capacity per route beside the seed's AMP rows, AP14 batches closed, open AP15
 * breaks and AP18 repairs by age, the time-driven duties (DAY/GTD expiry due, expired, lag; AP15
 * escalations; AP16 lease recoveries), the ops endpoints, and where things are. Rendered as text
 * and, for tests, as JSON.
 */
record StackSummary(
        String transport,
        Map<String, Map<String, Object>> routes,
        Map<String, Map<String, Double>> jobMetrics,
        Map<String, String> jobStatus,
        LedgerAudit.Result audit,
        int freshnessSamples,
        long freshnessP50Millis,
        long freshnessP99Millis,
        double firstRowSecondsFromJvm,
        double firstRowSecondsFromCommand,
        Map<String, String> capacityModel,
        String workload,
        Map<String, String> restoredFrom,
        Map<String, String> locations,
        String reconWindow,
        Map<String, Long> openRepairsByAge,
        Map<String, Number> duties,
        boolean relayRunning,
        Map<String, String> opsLinks) {

    /** Rounds of {@link #settledMetrics} before it reports what it has. */
    private static final int SETTLE_ROUNDS = 15;

    /** What the summary reports per job; the others may be absent (a job without that path). */
    private static final Map<String, List<String>> EXPECTED_METRICS =
            Map.of(
                    "posting",
                    List.of("posting.applied", "posting.rejected", "posting.duplicates"),
                    "projection",
                    List.of("gate.applied", "gate.openGaps", "gate.gapBreaks"),
                    "ledgercheck",
                    List.of("ledgercheck.checksEvaluated"));

    /** The seed's AMP rows each admission route is compared with. */
    static final Map<String, List<String>> ROUTE_AMP =
            Map.of(
                    WorkloadGenerator.ROUTE_ORDER, List.of("AMP14"),
                    WorkloadGenerator.ROUTE_FILL, List.of("AMP03", "AMP12"),
                    WorkloadGenerator.ROUTE_LEDGER, List.of("AMP07"));

    /** {@code {A=1, B=2}}, or {@code 0} when there are none. */
    static String byReason(Map<String, Long> counts) {
        return counts.isEmpty() ? "0" : counts.toString();
    }

    static StackSummary collect(
            WorkloadGenerator g,
            StackCluster cluster,
            LedgerAudit audit,
            FreshnessProbe probe,
            StackServices services,
            Path dataDir,
            String transport,
            StackServices.ReconWindow window,
            long launchEpochMillis,
            long jvmStartNanos) {
        Map<String, Map<String, Object>> routes = new LinkedHashMap<>();
        Map<String, String> model = new LinkedHashMap<>();
        Contract contract = ContractResources.contract();
        g.routes.forEach(
                (route, s) -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("admitted", s.admitted.sum());
                    m.put("replayed", s.replayed.sum());
                    m.put("rejected", s.rejected.sum());
                    m.put("failed", s.failed.sum());
                    m.put("inProgressRetries", s.inProgressRetries.sum());
                    Map<String, Long> codes = new TreeMap<>();
                    s.rejectCodes.forEach((k, v) -> codes.put(k, v.sum()));
                    m.put("rejectCodes", codes);
                    BigDecimal mean = s.meanCapacity();
                    m.put("meanCapacityUnits", mean == null ? null : mean.toPlainString());
                    m.put("totalCapacityUnits", s.totalCapacity().toPlainString());
                    routes.put(route, m);
                    StringBuilder sb = new StringBuilder();
                    BigDecimal sum = BigDecimal.ZERO;
                    List<String> amps = ROUTE_AMP.getOrDefault(route, List.of());
                    if (amps.isEmpty()) {
                        model.put(route, "no seed AMP row");
                        return;
                    }
                    for (String id : amps) {
                        AmplificationRow row = contract.amplification(id).orElseThrow();
                        sb.append(sb.length() == 0 ? "" : " + ")
                                .append(id)
                                .append(' ')
                                .append(row.scenario())
                                .append(' ')
                                .append(row.totalUnits().toPlainString());
                        sum = sum.add(row.totalUnits());
                    }
                    model.put(route, sb + " = " + sum.toPlainString() + " WCU");
                });
        Map<String, Map<String, Double>> metrics =
                settledMetrics(new JobMetrics(cluster.uiUrl()), cluster.jobs());
        LedgerAudit.Result result = audit.run();
        List<Long> fresh = probe.samplesMillis();
        long first = probe.firstRowNanos();
        double fromJvm = first < 0 ? -1 : (first - jvmStartNanos) / 1e9;
        double fromCommand = -1;
        if (first >= 0 && launchEpochMillis > 0) {
            long firstEpochMillis =
                    System.currentTimeMillis() - (System.nanoTime() - first) / 1_000_000L;
            fromCommand = (firstEpochMillis - launchEpochMillis) / 1000.0;
        }
        Map<String, String> where = new LinkedHashMap<>();
        where.put("Flink web UI", cluster.uiUrl());
        where.put("command service", services.commandUrl());
        if (services.metricsServer != null) {
            where.put("command metrics", services.commandMetricsUrl());
        }
        where.put("DynamoDB endpoint", services.endpoint.endpoint().toString());
        where.put("data dir", dataDir.toString());
        where.put("checkpoints", dataDir.resolve("checkpoints").toString());
        where.put("savepoints", dataDir.resolve("savepoints").toString());
        where.put("log", dataDir.resolve("stack.log").toString());
        Map<String, Long> repairs;
        try {
            repairs = OpsLinks.repairsByAge(services.commandUrl(), services.apiKeys.keySet());
        } catch (IOException e) {
            throw new UncheckedIOException("the AP18 repair queue could not be read", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the repair queue", e);
        }
        return new StackSummary(
                transport,
                routes,
                metrics,
                cluster.statuses(),
                result,
                fresh.size(),
                FreshnessProbe.percentile(fresh, 50),
                FreshnessProbe.percentile(fresh, 99),
                fromJvm,
                fromCommand,
                model,
                String.format(
                        Locale.ROOT,
                        "%d requests at %.1f/s achieved (target %.1f/s, back-pressured by the"
                                + " service)",
                        g.issued(),
                        g.achievedRate(),
                        g.targetRate()),
                Map.copyOf(cluster.restoredFrom()),
                where,
                String.format(
                        Locale.ROOT,
                        "window %ds, allowed lateness %ds, out-of-orderness %ds",
                        window.size().toSeconds(),
                        window.allowedLateness().toSeconds(),
                        window.outOfOrderness().toSeconds()),
                repairs,
                services.dutyMetrics.snapshot(),
                services.relayRunning(),
                OpsLinks.links(services.commandUrl(), LocalDate.now(ZoneOffset.UTC)));
    }

    /**
     * Every job's metrics once the REST cache has caught up: it answers from its last refresh
     * (possibly from before the workload) and refreshes behind the request, so reads are repeated,
     * more than one refresh apart, until two agree on the metrics the summary reports exactly.
     */
    private static Map<String, Map<String, Double>> settledMetrics(
            JobMetrics reader, Map<String, JobID> jobs) {
        Map<String, Map<String, Double>> last = readAll(reader, jobs);
        for (int round = 0; round < SETTLE_ROUNDS; round++) {
            try {
                Thread.sleep(JobMetrics.FETCH_INTERVAL.multipliedBy(2).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            Map<String, Map<String, Double>> next = readAll(reader, jobs);
            if (complete(next) && reported(next).equals(reported(last))) {
                return next;
            }
            last = next;
        }
        return last;
    }

    private static Map<String, Map<String, Double>> readAll(
            JobMetrics reader, Map<String, JobID> jobs) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        jobs.forEach(
                (role, id) -> {
                    try {
                        out.put(role, reader.domainMetrics(id));
                    } catch (Exception busy) {
                        out.put(role, Map.of()); // the REST endpoint is busy: the next round reads
                    }
                });
        return out;
    }

    private static Map<String, Double> reported(Map<String, Map<String, Double>> metrics) {
        Map<String, Double> out = new TreeMap<>();
        EXPECTED_METRICS.forEach(
                (role, names) ->
                        names.forEach(
                                n ->
                                        out.put(
                                                role + "/" + n,
                                                metrics.getOrDefault(role, Map.of()).get(n))));
        return out;
    }

    private static boolean complete(Map<String, Map<String, Double>> metrics) {
        return metrics.entrySet().stream()
                .allMatch(
                        e ->
                                e.getValue()
                                        .keySet()
                                        .containsAll(
                                                EXPECTED_METRICS.getOrDefault(
                                                        e.getKey(), List.of())));
    }

    private static long metric(Map<String, Double> m, String key) {
        Double v = m == null ? null : m.get(key);
        return v == null ? 0 : Math.round(v);
    }

    String render() {
        StringBuilder b = new StringBuilder();
        b.append("\n==== streamledger local stack: summary (transport ")
                .append(transport)
                .append(") ====\n");
        b.append("workload: ").append(workload).append('\n');
        b.append("admitted by the command service:\n");
        routes.forEach(
                (route, m) ->
                        b.append(
                                String.format(
                                        Locale.ROOT,
                                        "  %-30s admitted %6s  replayed %s  rejected %s %s"
                                                + " failed %s  in-progress retries %s%n",
                                        route,
                                        m.get("admitted"),
                                        m.get("replayed"),
                                        m.get("rejected"),
                                        m.get("rejectCodes"),
                                        m.get("failed"),
                                        m.get("inProgressRetries"))));
        Map<String, Double> posting = jobMetrics.get("posting");
        Map<String, Double> projection = jobMetrics.get("projection");
        b.append("jobs (Flink metrics, summed over operators and subtasks):\n");
        b.append(
                String.format(
                        Locale.ROOT,
                        "  posting     [%s] fills applied %d, duplicate %d, rejected %d,"
                                + " retries %d, conflicts %d; source parsed %d skipped %d%n",
                        jobStatus.get("posting"),
                        metric(posting, "posting.applied"),
                        metric(posting, "posting.duplicates"),
                        metric(posting, "posting.rejected"),
                        metric(posting, "posting.retries"),
                        metric(posting, "posting.conflicts"),
                        metric(posting, "source.parsed"),
                        metric(posting, "source.skipped")));
        b.append("              retries by cause:");
        for (PostingRetryCause c : PostingRetryCause.values()) {
            b.append(' ').append(c.metricName()).append(' ');
            b.append(metric(posting, "posting." + c.flinkCounter()));
        }
        b.append('\n');
        b.append(
                String.format(
                        Locale.ROOT,
                        "  projection  [%s] versions applied %d, duplicate %d, stale %d, parked"
                                + " now %d, open gaps %d, gap breaks %d%n",
                        jobStatus.get("projection"),
                        metric(projection, "gate.applied"),
                        metric(projection, "gate.duplicates"),
                        metric(projection, "gate.stale"),
                        metric(projection, "gate.parked"),
                        metric(projection, "gate.openGaps"),
                        metric(projection, "gate.gapBreaks")));
        Map<String, Double> check = jobMetrics.get("ledgercheck");
        Map<String, Double> recon = jobMetrics.get("reconciliation");
        b.append(
                String.format(
                        Locale.ROOT,
                        "  ledgercheck [%s] checks evaluated %d, duplicates ignored %d, breaks"
                                + " emitted %d%n",
                        jobStatus.get("ledgercheck"),
                        metric(check, "ledgercheck.checksEvaluated"),
                        metric(check, "ledgercheck.duplicatesIgnored"),
                        metric(check, "breaks.emitted")));
        b.append(
                String.format(
                        Locale.ROOT, "  reconciliation [%s]", jobStatus.get("reconciliation")));
        if (recon != null) {
            recon.forEach(
                    (k, v) -> {
                        if (k.startsWith("recon.")) {
                            b.append(' ').append(k.substring(6)).append(' ').append(Math.round(v));
                        }
                    });
        }
        b.append('\n');
        b.append("reservations (AP12, by state): ")
                .append(
                        String.format(
                                Locale.ROOT,
                                "open %d consumed %d released %d",
                                audit.reservationsByState().getOrDefault("OPEN", 0L),
                                audit.reservationsByState().getOrDefault("CONSUMED", 0L),
                                audit.reservationsByState().getOrDefault("RELEASED", 0L)))
                .append('\n');
        b.append("breaks by origin/reason (AP15 rows in the Reconciliation table): ")
                .append(audit.breaksByReason().isEmpty() ? "none" : audit.breaksByReason())
                .append('\n');
        b.append("reconciliation batches (AP14; ")
                .append(reconWindow)
                .append("): closed ")
                .append(audit.batchesByState().getOrDefault(BatchItems.STATE_CLOSED, 0L))
                .append(", provisional ")
                .append(audit.batchesByState().getOrDefault(BatchItems.STATE_PROVISIONAL, 0L))
                .append('\n');
        b.append("open breaks by age (AP15): ")
                .append(audit.openBreaksByAge().isEmpty() ? "none" : audit.openBreaksByAge())
                .append("; open repairs by age (AP18): ")
                .append(openRepairsByAge.isEmpty() ? "none" : openRepairsByAge)
                .append('\n');
        b.append(
                String.format(
                        Locale.ROOT,
                        "time-driven duties: DAY/GTD expiry due %s, expired %s, skipped %s, lag"
                                + " %s s; AP15 escalations %s; AP16 lease recoveries %s%n",
                        duties.get("expiryDue"),
                        duties.get("expired"),
                        duties.get("expirySkipped"),
                        duties.get("expiryLagSeconds"),
                        duties.get("escalations"),
                        relayRunning
                                ? duties.get("outboxLeasesRecovered")
                                : "n/a (no relay on this transport)"));
        b.append("dead letters by reason (DeadLetter table): ")
                .append(byReason(audit.deadLettersByReason()))
                .append("; rejected records by reason: ")
                .append(byReason(audit.rejectedByReason()))
                .append('\n');
        b.append("tables:\n");
        b.append(
                String.format(
                        Locale.ROOT,
                        "  orders %d, trades %d, inbox receipts (fills posted) %d%n"
                                + "  ledger transactions %d (%d posting lines), unbalanced %d%n"
                                + "  authorities %d (%d not equal to their posting lines;"
                                + " %d in the view's scope '%s'),"
                                + " Portfolio rows %d, rows behind authority %d,"
                                + " rows with an open gap %d -> view %s authority%n",
                        audit.orders(),
                        audit.trades(),
                        audit.inboxReceipts(),
                        audit.ledgerTransactions(),
                        audit.postingLines(),
                        audit.unbalancedTransactions(),
                        audit.authorities(),
                        audit.authoritiesNotEqualToPostings(),
                        audit.authoritiesInViewScope(),
                        audit.viewScope().label(),
                        audit.portfolioRows(),
                        audit.portfolioRowsBehind(),
                        audit.portfolioRowsWithOpenGap(),
                        audit.viewMatchesAuthority() ? "==" : "!="));
        b.append(
                String.format(
                        Locale.ROOT,
                        "freshness fill accepted -> Portfolio row visible: p50 %d ms, p99 %d ms"
                                + " (%d samples)%n",
                        freshnessP50Millis,
                        freshnessP99Millis,
                        freshnessSamples));
        b.append(
                String.format(
                        Locale.ROOT,
                        "first projection row: %.1f s after JVM start%s%n",
                        firstRowSecondsFromJvm,
                        firstRowSecondsFromCommand < 0
                                ? ""
                                : String.format(
                                        Locale.ROOT,
                                        ", %.1f s after the command (build included)",
                                        firstRowSecondsFromCommand)));
        b.append("consumed capacity per request (command service, RCU+WCU incl. transactional 2x)")
                .append(" beside the seed's model:\n");
        routes.forEach(
                (route, m) ->
                        b.append(
                                String.format(
                                        Locale.ROOT,
                                        "  %-30s mean %6s units | seed %s%n",
                                        route,
                                        m.get("meanCapacityUnits"),
                                        capacityModel.get(route))));
        restoredFrom.forEach(
                (job, from) ->
                        b.append("restored ")
                                .append(job)
                                .append(" from ")
                                .append(from)
                                .append('\n'));
        b.append("ops API (GET with header X-Api-Key: ")
                .append(OpsLinks.auditorKey("<tenant>"))
                .append(", role auditor):\n");
        opsLinks.forEach((k, v) -> b.append(String.format(Locale.ROOT, "  %-18s %s%n", k, v)));
        b.append("where:\n");
        locations.forEach((k, v) -> b.append(String.format(Locale.ROOT, "  %-18s %s%n", k, v)));
        return b.toString();
    }

    void writeJson(Path file) throws IOException {
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(file.toFile(), this);
    }
}
