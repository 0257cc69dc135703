package io.streamledger.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.command.api.HttpApi;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Seeded workload through the command service's HTTP API with per-tenant API keys: a cash deposit
 * per account (AP10/AP12 ledger transaction), then at a fixed rate orders (CS01/CS02), partial and
 * full fills of open orders (CS04) and small deposits; counts admissions per route and the consumed
 * capacity each response reports (X-Consumed-Capacity), for the summary beside the seed's AMP rows.
 */
final class WorkloadGenerator {

    static final String ROUTE_ORDER = "POST /v1/orders";
    static final String ROUTE_FILL = "POST /v1/orders/{id}/fills";
    static final String ROUTE_LEDGER = "POST /v1/ledger/transactions";
    static final String ROUTE_CANCEL = "POST /v1/orders/{id}/cancel";

    static final List<String> SYMBOLS =
            List.of("AAPL", "MSFT", "NVDA", "AMZN", "GOOG", "META", "TSLA", "IBM", "ORCL", "INTC");

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The command service's AP08 answers for a key whose first attempt has no outcome yet. */
    private static final Set<String> IN_PROGRESS_CODES =
            Set.of("REQUEST_IN_PROGRESS", "REQUEST_UNDER_REPAIR");

    private static final int MAX_IN_PROGRESS_RETRIES = 30;
    private static final long MAX_RETRY_AFTER_SECONDS = 5;
    private static final BigDecimal OPENING_CASH = new BigDecimal("50000000.00");

    /** Workload shape. */
    record Shape(
            long seed,
            int tenants,
            int accountsPerTenant,
            int symbols,
            double ratePerSecond,
            Duration duration,
            int clients) {}

    /** Per-route counters. */
    static final class RouteStats {
        final LongAdder admitted = new LongAdder();
        final LongAdder replayed = new LongAdder();
        final LongAdder rejected = new LongAdder();
        final LongAdder failed = new LongAdder();

        /** 409 REQUEST_IN_PROGRESS / REQUEST_UNDER_REPAIR answers retried with the same key. */
        final LongAdder inProgressRetries = new LongAdder();

        final Map<String, LongAdder> rejectCodes = new ConcurrentHashMap<>();
        private final Object capacityLock = new Object();
        private BigDecimal capacityUnits = BigDecimal.ZERO;
        private long capacitySamples;

        void capacity(BigDecimal units) {
            synchronized (capacityLock) {
                capacityUnits = capacityUnits.add(units);
                capacitySamples++;
            }
        }

        /** Mean consumed capacity units per admitted request, or null without samples. */
        BigDecimal meanCapacity() {
            synchronized (capacityLock) {
                return capacitySamples == 0
                        ? null
                        : capacityUnits.divide(
                                BigDecimal.valueOf(capacitySamples), 2, RoundingMode.HALF_UP);
            }
        }

        BigDecimal totalCapacity() {
            synchronized (capacityLock) {
                return capacityUnits;
            }
        }
    }

    private final Shape shape;
    private final String baseUrl;
    private final Map<String, String> apiKeyByTenant;
    private final HttpClient http =
            HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
    private final Random random;
    private final Deque<OpenOrder> open = new ArrayDeque<>();

    /** tenant/account/symbol → shares bought and not yet offered for sale: no short sales. */
    private final Map<String, Long> unsold = new java.util.HashMap<>();

    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong issued = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile long startNanos = -1;
    private volatile long endNanos = -1;
    final Map<String, RouteStats> routes = new TreeMap<>();
    private volatile FreshnessProbe probe;

    WorkloadGenerator(Shape shape, String baseUrl, Map<String, String> apiKeyByTenant) {
        this.shape = shape;
        this.baseUrl = baseUrl;
        this.apiKeyByTenant = Map.copyOf(apiKeyByTenant);
        this.random = new Random(shape.seed());
        for (String r : List.of(ROUTE_ORDER, ROUTE_FILL, ROUTE_LEDGER, ROUTE_CANCEL)) {
            routes.put(r, new RouteStats());
        }
    }

    /** The tenants and their demo API keys the command service is started with. */
    static Map<String, String> demoKeys(int tenants) {
        Map<String, String> keys = new TreeMap<>();
        for (int t = 1; t <= tenants; t++) {
            keys.put("tenant-" + t, "demo-key-tenant-" + t);
        }
        return keys;
    }

    void probe(FreshnessProbe p) {
        this.probe = p;
    }

    long issued() {
        return issued.get();
    }

    /** Fraction of the configured duration elapsed, 0..1. */
    double elapsedFraction() {
        long start = startNanos;
        if (start < 0) {
            return 0;
        }
        long now = endNanos > 0 ? endNanos : System.nanoTime();
        return Math.min(1.0, (now - start) / (double) shape.duration().toNanos());
    }

    /** Requests issued per second of workload time so far. */
    double achievedRate() {
        long start = startNanos;
        if (start < 0) {
            return 0;
        }
        long now = endNanos > 0 ? endNanos : System.nanoTime();
        return issued.get() / Math.max(1e-9, (now - start) / 1e9);
    }

    double targetRate() {
        return shape.ratePerSecond();
    }

    long plannedOperations() {
        return Math.round(shape.ratePerSecond() * shape.duration().toMillis() / 1000.0);
    }

    void stop() {
        stop.set(true);
    }

    /** Opening deposits, then paced operations until the duration ends or {@link #stop}. */
    void run() throws InterruptedException {
        String run = Long.toString(System.currentTimeMillis(), 36);
        for (String tenant : apiKeyByTenant.keySet()) {
            for (int a = 1; a <= shape.accountsPerTenant(); a++) {
                deposit(tenant, "ACC-" + a, OPENING_CASH, "open-" + run + "-" + a);
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(shape.clients());
        // back-pressure: at most two requests queued per client, so a slow service lowers the
        // achieved rate (reported) instead of piling up requests that are then dropped
        java.util.concurrent.Semaphore inFlight =
                new java.util.concurrent.Semaphore(2 * shape.clients());
        startNanos = System.nanoTime();
        try {
            long periodNanos = (long) (1_000_000_000L / shape.ratePerSecond());
            long start = System.nanoTime();
            long end = start + shape.duration().toNanos();
            long next = start;
            while (!stop.get() && System.nanoTime() < end) {
                long now = System.nanoTime();
                if (now < next) {
                    TimeUnit.NANOSECONDS.sleep(Math.min(next - now, 50_000_000L));
                    continue;
                }
                next = Math.max(next + periodNanos, System.nanoTime() - periodNanos);
                if (!inFlight.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                Runnable op = nextOperation(run);
                issued.incrementAndGet();
                pool.execute(
                        () -> {
                            try {
                                op.run();
                            } finally {
                                inFlight.release();
                            }
                        });
            }
        } finally {
            pool.shutdown();
            // everything issued is at most 2 x clients requests away from done: let it finish
            pool.awaitTermination(120, TimeUnit.SECONDS);
            pool.shutdownNow();
            endNanos = System.nanoTime();
        }
    }

    /** Picks the next operation from the seeded generator (one lock: the choice is seeded). */
    private synchronized Runnable nextOperation(String run) {
        long n = sequence.incrementAndGet();
        List<String> tenants = new ArrayList<>(apiKeyByTenant.keySet());
        int roll = random.nextInt(100);
        if (!open.isEmpty() && roll < 55) {
            OpenOrder o = open.pollFirst();
            BigDecimal qty;
            if (o.remaining <= 1 || random.nextInt(3) == 0) {
                qty = BigDecimal.valueOf(o.remaining);
                o.remaining = 0;
            } else {
                long part = 1 + random.nextInt((int) Math.min(o.remaining - 1, 100));
                qty = BigDecimal.valueOf(part);
                o.remaining -= part;
            }
            int fillNo = ++o.fills;
            if (o.remaining > 0) {
                open.addLast(o);
            }
            BigDecimal fee = new BigDecimal(35 + random.nextInt(165)).movePointLeft(2);
            return () -> fill(o, qty, fee, "f-" + fillNo);
        }
        if (!open.isEmpty() && roll < 60 && open.peekLast().orderId != null) {
            // cancel the newest open order: its remaining reservation is released (AP12)
            OpenOrder o = open.pollLast();
            return () -> cancel(o);
        }
        if (roll >= 92) {
            String tenant = tenants.get(random.nextInt(tenants.size()));
            String account = "ACC-" + (1 + random.nextInt(shape.accountsPerTenant()));
            BigDecimal amount = new BigDecimal(1000 + random.nextInt(99000)).movePointLeft(2);
            return () -> deposit(tenant, account, amount, "dep-" + run + "-" + n);
        }
        OpenOrder o = new OpenOrder();
        o.tenant = tenants.get(random.nextInt(tenants.size()));
        o.accountId = "ACC-" + (1 + random.nextInt(shape.accountsPerTenant()));
        o.symbol = SYMBOLS.get(random.nextInt(Math.min(shape.symbols(), SYMBOLS.size())));
        o.quantity = 10 + random.nextInt(191);
        o.side = "BUY";
        long held = unsold.getOrDefault(o.position(), 0L);
        if (random.nextInt(3) == 0 && held >= 10) {
            // sell what the account holds, never short (the ledger check flags negative holdings)
            o.side = "SELL";
            o.quantity = Math.min(o.quantity, held);
            unsold.put(o.position(), held - o.quantity);
        }
        o.remaining = o.quantity;
        o.limitPrice = new BigDecimal(5000 + random.nextInt(45000)).movePointLeft(2);
        o.clientOrderId = "c-" + run + "-" + n;
        return () -> place(o);
    }

    private void place(OpenOrder o) {
        ObjectNode body = JSON.createObjectNode();
        body.put("clientOrderId", o.clientOrderId);
        body.put("accountId", o.accountId);
        body.put("symbol", o.symbol);
        body.put("side", o.side);
        body.put("type", "LIMIT");
        body.put("quantity", Long.toString(o.quantity));
        body.put("limitPrice", o.limitPrice.toPlainString());
        body.put("currency", "USD");
        JsonNode r = post(ROUTE_ORDER, o.tenant, "/v1/orders", body, "req-" + o.clientOrderId);
        synchronized (this) {
            if (r != null) {
                o.orderId = r.path("order").path("orderId").asText();
                open.addLast(o);
            } else if (o.side.equals("SELL")) {
                unsold.merge(o.position(), o.quantity, Long::sum);
            }
        }
    }

    private void cancel(OpenOrder o) {
        JsonNode r =
                post(
                        ROUTE_CANCEL,
                        o.tenant,
                        "/v1/orders/" + o.orderId + "/cancel",
                        JSON.createObjectNode(),
                        null);
        if (r != null && o.side.equals("SELL")) {
            synchronized (this) {
                // what the cancelled sell did not sell is the account's to sell again
                unsold.merge(o.position(), o.remaining, Long::sum);
            }
        }
    }

    private void fill(OpenOrder o, BigDecimal qty, BigDecimal fee, String fillId) {
        if (o.orderId == null) {
            // the order's admission is still in flight or was rejected: fills wait for it
            synchronized (this) {
                if (!stop.get()) {
                    o.remaining += qty.longValueExact();
                    o.fills--;
                    if (!open.contains(o)) {
                        open.addLast(o);
                    }
                }
            }
            return;
        }
        ObjectNode body = JSON.createObjectNode();
        body.put("fillId", fillId);
        body.put("quantity", qty.toPlainString());
        body.put("price", o.limitPrice.toPlainString());
        body.put("fee", fee.toPlainString());
        body.put("executedAt", Instant.now().toString());
        FreshnessProbe p = probe;
        FreshnessProbe.Sample sample =
                p == null ? null : p.beforeFill(o.tenant, o.accountId, o.symbol);
        JsonNode r = post(ROUTE_FILL, o.tenant, "/v1/orders/" + o.orderId + "/fills", body, null);
        if (r != null && o.side.equals("BUY")) {
            synchronized (this) {
                unsold.merge(o.position(), qty.longValueExact(), Long::sum);
            }
        }
        if (sample != null) {
            if (r != null) {
                p.admitted(sample, System.nanoTime());
            } else {
                p.abandoned(sample);
            }
        }
    }

    private void deposit(String tenant, String account, BigDecimal amount, String sourceId) {
        ObjectNode body = JSON.createObjectNode();
        body.put("sourceId", sourceId);
        var postings = body.putArray("postings");
        ObjectNode from = postings.addObject();
        from.put("accountId", "SYS-BANK");
        from.put("currency", "USD");
        from.put("amount", amount.negate().toPlainString());
        ObjectNode to = postings.addObject();
        to.put("accountId", account);
        to.put("currency", "USD");
        to.put("amount", amount.toPlainString());
        post(ROUTE_LEDGER, tenant, "/v1/ledger/transactions", body, null);
    }

    /** POSTs and records the outcome; the parsed 2xx body or null. */
    private JsonNode post(
            String route, String tenant, String path, ObjectNode body, String idempotencyKey) {
        RouteStats stats = routes.get(route);
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(baseUrl + path))
                        .timeout(Duration.ofSeconds(30))
                        .header(HttpApi.HEADER_API_KEY, apiKeyByTenant.get(tenant))
                        .header("Content-Type", "application/json")
                        .POST(
                                HttpRequest.BodyPublishers.ofString(
                                        body.toString(), StandardCharsets.UTF_8));
        if (idempotencyKey != null) {
            b.header(HttpApi.HEADER_IDEMPOTENCY_KEY, idempotencyKey);
        }
        try {
            HttpRequest request = b.build();
            boolean answeredInProgress = false;
            for (int attempt = 0; ; attempt++) {
                HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                r.headers().firstValue(HttpApi.HEADER_CAPACITY).ifPresent(h -> capacity(stats, h));
                if (r.statusCode() / 100 == 2) {
                    boolean replay =
                            r.headers()
                                    .firstValue(HttpApi.HEADER_REPLAYED)
                                    .map("true"::equals)
                                    .orElse(false);
                    // the stored answer to an attempt left unanswered is this client's admission
                    (replay && !answeredInProgress ? stats.replayed : stats.admitted).increment();
                    return JSON.readTree(r.body());
                }
                String code =
                        r.statusCode() / 100 == 4
                                ? JSON.readTree(r.body())
                                        .path("error")
                                        .path("code")
                                        .asText("HTTP_4xx")
                                : null;
                if (r.statusCode() == 409
                        && IN_PROGRESS_CODES.contains(code)
                        && attempt < MAX_IN_PROGRESS_RETRIES) {
                    // AP08: the key's first attempt is still open; ask again for its outcome
                    stats.inProgressRetries.increment();
                    answeredInProgress = true;
                    Thread.sleep(retryAfterMillis(r));
                    continue;
                }
                if (code != null) {
                    stats.rejected.increment();
                    stats.rejectCodes.computeIfAbsent(code, k -> new LongAdder()).increment();
                } else {
                    stats.failed.increment();
                }
                return null;
            }
        } catch (IOException e) {
            stats.failed.increment();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stats.failed.increment();
        }
        return null;
    }

    /** Retry-After in ms, capped so a stopping workload still settles its last requests. */
    private static long retryAfterMillis(HttpResponse<String> r) {
        long seconds =
                r.headers()
                        .firstValue("Retry-After")
                        .map(
                                v -> {
                                    try {
                                        return Long.parseLong(v.trim());
                                    } catch (NumberFormatException e) {
                                        return 1L;
                                    }
                                })
                        .orElse(1L);
        return Math.max(100, Math.min(seconds, MAX_RETRY_AFTER_SECONDS) * 1000);
    }

    /** {@code total=3.0;Orders=1.0;...}: the total of one response. */
    private static void capacity(RouteStats stats, String header) {
        for (String part : header.split(";")) {
            if (part.startsWith("total=")) {
                try {
                    stats.capacity(new BigDecimal(part.substring("total=".length())));
                } catch (NumberFormatException ignored) {
                    // a malformed header is not the workload's concern
                }
            }
        }
    }

    /** An order the generator may still fill. */
    private static final class OpenOrder {
        String tenant;
        String accountId;
        String symbol;
        String side;
        String clientOrderId;
        volatile String orderId;
        long quantity;
        long remaining;
        int fills;
        BigDecimal limitPrice;

        String position() {
            return tenant + "/" + accountId + "/" + symbol;
        }
    }
}
