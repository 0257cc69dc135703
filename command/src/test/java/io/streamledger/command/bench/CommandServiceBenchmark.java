package io.streamledger.command.bench;

import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Black-box benchmark (a main, not a test) of the command service's accepted_order_v1 admission
 * (AP08/CS01 + AP12 hold): starts the local endpoint and the command service as documented in the
 * module README, each in its own JVM, funds the bench accounts over HTTP, then runs {@link
 * AdmissionLoadGenerator} in a third JVM: orders at 500 and 1,000/s and at saturation, and the
 * endpoint's raw 4-item TransactWriteItems at saturation from the same generator (the baseline).
 * Prints per phase the generator's figures, the CPU per request of each process (from {@code
 * /proc}) and the load average before and after.
 *
 * <p>Args: {@code [seconds per phase (20)] [accounts (256)]}; system properties {@code
 * bench.serviceJvmOpts} / {@code bench.endpointJvmOpts} add JVM options (e.g. a JFR recording),
 * {@code bench.phases} replaces the phase list ({@code mode:rate:seconds:maxInFlight,...}).
 */
public final class CommandServiceBenchmark {

    static final String TENANT = "bench";
    static final String KEY = "bench-key";
    static final String RAW_TABLE = "bench_raw_tx";
    private static final long CLOCK_TICKS = 100; // USER_HZ on Linux

    /** The {@code n}-th funded bench account. */
    static String account(int n) {
        return "BENCH-" + n;
    }

    public static void main(String[] args) throws Exception {
        try {
            run(args);
        } finally {
            System.exit(0); // runs the hook that stops the child processes
        }
    }

    private static void run(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int accounts = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        String cp = System.getProperty("java.class.path");
        Path dir = Files.createTempDirectory("cs-bench");
        int endpointPort = freePort();
        int servicePort = freePort();
        List<Process> started = new ArrayList<>();
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    started.forEach(Process::destroy);
                                    for (Process p : started) {
                                        try {
                                            p.waitFor(); // a JFR recording is dumped on exit
                                        } catch (InterruptedException e) {
                                            Thread.currentThread().interrupt();
                                        }
                                    }
                                }));

        Process endpoint =
                start(
                        started,
                        dir.resolve("endpoint.log"),
                        java(
                                cp,
                                "-Dsun.net.httpserver.nodelay=true "
                                        + System.getProperty("bench.endpointJvmOpts", ""),
                                "io.streamledger.local.LocalEndpointMain",
                                "--port",
                                Integer.toString(endpointPort)));
        awaitPort(endpointPort, endpoint);
        Path keys = dir.resolve("keys.txt");
        Files.writeString(keys, TENANT + " " + ApiKeyAuthenticator.sha256Hex(KEY) + "\n");
        Process service =
                start(
                        started,
                        dir.resolve("service.log"),
                        java(
                                cp,
                                System.getProperty("bench.serviceJvmOpts", ""),
                                "io.streamledger.command.CommandServiceMain",
                                "--port",
                                Integer.toString(servicePort),
                                "--api-keys-file",
                                keys.toString(),
                                "--dynamodb-endpoint",
                                "http://127.0.0.1:" + endpointPort,
                                "--region",
                                "us-east-1",
                                "--table-prefix",
                                "",
                                "--create-tables",
                                "--no-relay",
                                "--repair"));
        awaitPort(servicePort, service);
        String serviceUrl = "http://127.0.0.1:" + servicePort;
        String endpointUrl = "http://127.0.0.1:" + endpointPort;
        System.out.printf(
                Locale.ROOT,
                "endpoint pid %d %s, command service pid %d %s (logs in %s)%n",
                endpoint.pid(),
                endpointUrl,
                service.pid(),
                serviceUrl,
                dir);
        createRawTable(endpointUrl);
        fund(serviceUrl, accounts);

        String phases =
                System.getProperty(
                        "bench.phases",
                        String.join(
                                ",",
                                "orders:300:" + seconds + ":512", // warm-up (JIT), not reported
                                "orders:500:" + seconds + ":1024",
                                "orders:1000:" + seconds + ":1024",
                                "orders:4000:" + seconds + ":64",
                                "raw:8000:" + seconds + ":64",
                                "raw:1000:" + seconds + ":1024"));
        List<String> cmd =
                java(
                        cp,
                        "",
                        AdmissionLoadGenerator.class.getName(),
                        serviceUrl,
                        endpointUrl,
                        KEY,
                        Integer.toString(accounts),
                        RAW_TABLE);
        cmd.addAll(List.of(phases.split(",")));
        Process gen = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        started.add(gen);
        long[] service0 = {0};
        long[] endpoint0 = {0};
        Map<String, Long> serviceThreads0 = new HashMap<>();
        String load0 = "";
        try (BufferedReader r =
                new BufferedReader(
                        new InputStreamReader(gen.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("PHASE_START")) {
                    service0[0] = cpuTicks(service.pid());
                    endpoint0[0] = cpuTicks(endpoint.pid());
                    serviceThreads0.clear();
                    serviceThreads0.putAll(threadTicks(service.pid()));
                    load0 = loadAverage();
                    System.out.println(line + " (load average " + load0 + ")");
                } else if (line.startsWith("RESULT")) {
                    long sent = Long.parseLong(field(line, "sent"));
                    double serviceMs =
                            (cpuTicks(service.pid()) - service0[0])
                                    * 1000.0
                                    / CLOCK_TICKS
                                    / Math.max(1, sent);
                    double endpointMs =
                            (cpuTicks(endpoint.pid()) - endpoint0[0])
                                    * 1000.0
                                    / CLOCK_TICKS
                                    / Math.max(1, sent);
                    System.out.printf(
                            Locale.ROOT,
                            "%s serviceCpuMsPerReq=%.3f endpointCpuMsPerReq=%.3f load=[%s -> %s]%n",
                            line,
                            serviceMs,
                            endpointMs,
                            load0,
                            loadAverage());
                    System.out.println(
                            "  service CPU ms/req by thread: "
                                    + byThread(serviceThreads0, threadTicks(service.pid()), sent));
                } else {
                    System.out.println(line);
                }
            }
        }
        gen.waitFor();
        service.destroy();
        endpoint.destroy();
        service.waitFor();
        endpoint.waitFor();
    }

    static List<String> java(String cp, String jvmOpts, String main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String o : jvmOpts.trim().split("\\s+")) {
            if (!o.isEmpty()) {
                cmd.add(o);
            }
        }
        cmd.add("-cp");
        cmd.add(cp);
        cmd.add(main);
        cmd.addAll(List.of(args));
        return cmd;
    }

    static Process start(List<Process> started, Path log, List<String> cmd) throws IOException {
        Process p =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        started.add(p);
        return p;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static void awaitPort(int port, Process p) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("process exited with " + p.exitValue());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("port " + port + " not open after 3 min");
    }

    private static void createRawTable(String endpointUrl) throws Exception {
        String body =
                "{\"TableName\":\""
                        + RAW_TABLE
                        + "\",\"AttributeDefinitions\":[{\"AttributeName\":\"pk\","
                        + "\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"pk\","
                        + "\"KeyType\":\"HASH\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}";
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(endpointUrl + "/"))
                                        .header("Content-Type", "application/x-amz-json-1.0")
                                        .header("X-Amz-Target", "DynamoDB_20120810.CreateTable")
                                        .POST(HttpRequest.BodyPublishers.ofString(body))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("CreateTable: " + r.statusCode() + " " + r.body());
        }
    }

    /** One deposit per account (CS11), a few at a time, from 16 exempt bank accounts. */
    private static void fund(String serviceUrl, int accounts) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> done = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int a = 0; a < accounts; a++) {
            String acct = account(a);
            String body =
                    "{\"sourceId\":\"fund-"
                            + acct
                            + "\",\"postings\":[{\"accountId\":\"SYS-BANK-"
                            + (a % 16)
                            + "\",\"currency\":\"USD\","
                            + "\"amount\":\"-1000000000\"},{\"accountId\":\""
                            + acct
                            + "\",\"currency\":\"USD\",\"amount\":\"1000000000\"}]}";
            HttpRequest req =
                    HttpRequest.newBuilder(URI.create(serviceUrl + "/v1/ledger/transactions"))
                            .header(HttpApi.HEADER_API_KEY, KEY)
                            .header(HttpApi.HEADER_IDEMPOTENCY_KEY, "fund-" + acct)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build();
            done.add(
                    pool.submit(
                            () -> {
                                HttpResponse<String> r =
                                        http.send(req, HttpResponse.BodyHandlers.ofString());
                                // in progress or queued for repair: the same key again (AP08)
                                for (int round = 0;
                                        round < 60
                                                && (r.statusCode() == 409 || r.statusCode() == 503);
                                        round++) {
                                    Thread.sleep(1000);
                                    r = http.send(req, HttpResponse.BodyHandlers.ofString());
                                }
                                if (r.statusCode() / 100 != 2) {
                                    throw new IllegalStateException(
                                            "deposit " + r.statusCode() + " " + r.body());
                                }
                                return r.statusCode();
                            }));
        }
        for (Future<Integer> f : done) {
            f.get();
        }
        pool.shutdown();
        System.out.printf(
                Locale.ROOT,
                "funded %d accounts in %.1f s%n",
                accounts,
                (System.nanoTime() - t0) / 1e9);
    }

    /** utime + stime of a process, clock ticks ({@code /proc/<pid>/stat} fields 14 and 15). */
    static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * CPU ticks per thread group of a process: {@code /proc/<pid>/task/<tid>/stat}, grouped by the
     * thread's (15-character) name with its trailing number dropped, so GC and JIT threads show
     * beside the request threads.
     */
    static Map<String, Long> threadTicks(long pid) {
        Map<String, Long> out = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    out.merge(name.replaceAll("[-#_ ]?\\d+$", ""), ticks, Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException e) {
            return out;
        }
        return out;
    }

    /** The groups that used CPU between two {@link #threadTicks} snapshots, in ms per request. */
    static String byThread(Map<String, Long> before, Map<String, Long> after, long requests) {
        List<Map.Entry<String, Long>> d = new ArrayList<>();
        after.forEach(
                (k, v) -> {
                    long delta = v - before.getOrDefault(k, 0L);
                    if (delta > 0) {
                        d.add(Map.entry(k, delta));
                    }
                });
        d.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Long> e : d) {
            b.append(
                    String.format(
                            Locale.ROOT,
                            "%s%s=%.2f",
                            b.length() == 0 ? "" : ", ",
                            e.getKey(),
                            e.getValue() * 1000.0 / CLOCK_TICKS / Math.max(1, requests)));
        }
        return b.toString();
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    private static String field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new IllegalArgumentException(name + " not in " + line);
    }
}
