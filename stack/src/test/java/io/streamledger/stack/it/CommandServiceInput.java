package io.streamledger.stack.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Feeds a {@link Workload} through the real command service's HTTP API (CS01 accepted_order_v1,
 * CS04/CS05 fills): each order is placed with an Idempotency-Key and then filled fill by fill, so
 * every OrderAccepted/TradeExecuted outbox item in the Context table is written by the service's
 * own TransactWriteItems (AP08 record, AP17 sentinel, AP16 outbox item), never by the test.
 *
 * <p>A bounded pool of client threads works on different orders at once; the fills of one order go
 * in sequence, as an execution venue reports them. A client retries a request only when the service
 * asks it to (409 REQUEST_IN_PROGRESS, 503 with Retry-After) or the connection fails, with the same
 * idempotency key: a retry can never admit a second order or fill.
 */
final class CommandServiceInput {

    /** Client threads (and HTTP client executor threads): at most this many requests at once. */
    static final int DEFAULT_THREADS = 12;

    /** Attempts per request before the input phase fails. */
    static final int MAX_ATTEMPTS = 8;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the input phase did: requests answered 201, client retries, wall time. */
    record Result(long requests, long retries, long elapsedMs, Map<String, Long> retryReasons) {
        double perSecond() {
            return requests * 1000.0 / Math.max(1, elapsedMs);
        }

        @Override
        public String toString() {
            return String.format(
                    "%d requests (orders + fills) answered 201 in %d ms (%.1f/s), %d client"
                            + " retries %s",
                    requests, elapsedMs, perSecond(), retries, retryReasons);
        }
    }

    private final int port;
    private final Map<String, String> keyByTenant;
    private final HttpClient web;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final Map<String, Long> retryReasons = new TreeMap<>();

    private CommandServiceInput(int port, Map<String, String> keyByTenant, HttpClient web) {
        this.port = port;
        this.keyByTenant = keyByTenant;
        this.web = web;
    }

    /**
     * Starts the command service on {@code stack} (which must hold the command tables) on a random
     * port of 127.0.0.1, submits every order and fill of {@code w} with {@code threads} concurrent
     * clients, and stops the service again.
     */
    static Result submit(LocalStack stack, Workload w, int threads) throws Exception {
        List<String> tenants = w.orders.stream().map(Workload.Order::tenant).toList();
        return run(
                stack,
                tenants,
                threads,
                input ->
                        w.orders.stream()
                                .<Callable<Void>>map(
                                        o ->
                                                () -> {
                                                    input.placeAndFill(o);
                                                    return null;
                                                })
                                .toList());
    }

    /**
     * Like {@link #submit}, but one client per account: each account's deposit (a CS-route ledger
     * transaction from {@code SYS-BANK}), then its orders one after another in list order, so the
     * account's execution order is the list order whatever the other accounts do.
     *
     * @param deposits {@code tenant/account} → USD amount credited before the account's orders
     */
    static Result submitInAccountOrder(
            LocalStack stack,
            List<Workload.Order> orders,
            Map<String, BigDecimal> deposits,
            int threads)
            throws Exception {
        Map<String, List<Workload.Order>> byAccount = new java.util.LinkedHashMap<>();
        for (Workload.Order o : orders) {
            byAccount
                    .computeIfAbsent(o.tenant() + "/" + o.account(), k -> new ArrayList<>())
                    .add(o);
        }
        List<String> tenants = orders.stream().map(Workload.Order::tenant).toList();
        return run(
                stack,
                tenants,
                threads,
                input ->
                        byAccount.entrySet().stream()
                                .<Callable<Void>>map(
                                        e ->
                                                () -> {
                                                    Workload.Order first = e.getValue().get(0);
                                                    BigDecimal amount = deposits.get(e.getKey());
                                                    if (amount != null) {
                                                        input.deposit(
                                                                first.tenant(),
                                                                first.account(),
                                                                amount);
                                                    }
                                                    for (Workload.Order o : e.getValue()) {
                                                        input.placeAndFill(o);
                                                    }
                                                    return null;
                                                })
                                .toList());
    }

    private static Result run(
            LocalStack stack,
            List<String> tenants,
            int threads,
            java.util.function.Function<CommandServiceInput, List<Callable<Void>>> tasks)
            throws Exception {
        Map<String, String> keys = new TreeMap<>();
        ApiKeyAuthenticator.Builder auth = ApiKeyAuthenticator.builder();
        for (String tenant : tenants) {
            keys.computeIfAbsent(tenant, t -> "key-" + t + "-" + UUID.randomUUID());
        }
        keys.forEach(auth::key);
        CommandService service =
                new CommandService(
                        stack.ddb,
                        ServiceConfig.defaults(stack.prefix)
                                .withOverdraftExemptPrefixes(OVERDRAFT_EXEMPT),
                        RetryPolicy.defaults());
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        ExecutorService httpExecutor = Executors.newFixedThreadPool(threads);
        HttpApi http = service.http(auth.build()).start("127.0.0.1", 0);
        try {
            HttpClient web =
                    HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .connectTimeout(Duration.ofSeconds(10))
                            .executor(httpExecutor)
                            .build();
            CommandServiceInput input = new CommandServiceInput(http.port(), keys, web);
            long started = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (Callable<Void> task : tasks.apply(input)) {
                done.add(clients.submit(task));
            }
            for (Future<?> f : done) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    done.forEach(d -> d.cancel(true));
                    throw new AssertionError(
                            "command service input failed; requests handed to repair: "
                                    + repairReasons(stack),
                            e.getCause());
                }
            }
            long elapsed = (System.nanoTime() - started) / 1_000_000;
            synchronized (input.retryReasons) {
                return new Result(
                        input.requests.get(),
                        input.retries.get(),
                        elapsed,
                        new TreeMap<>(input.retryReasons));
            }
        } finally {
            clients.shutdownNow();
            clients.awaitTermination(10, TimeUnit.SECONDS);
            http.close();
            httpExecutor.shutdownNow();
        }
    }

    /** Why the service handed requests to repair (AP18): the reasons on their request records. */
    private static List<String> repairReasons(LocalStack stack) {
        List<String> out = new ArrayList<>();
        for (var item : stack.scan(stack.table(io.streamledger.model.table.Tables.IDEMPOTENCY))) {
            var reason =
                    item.get(io.streamledger.command.idempotency.IdempotencyStore.A_REPAIR_REASON);
            if (reason != null && out.size() < 5) {
                out.add(reason.s());
            }
        }
        return out;
    }

    /** POST /v1/ledger/transactions: {@code amount} USD from SYS-BANK to the account. */
    private void deposit(String tenant, String account, BigDecimal amount) throws Exception {
        ObjectNode txn = JSON.createObjectNode();
        txn.put("sourceId", "dep-" + account);
        var postings = txn.putArray("postings");
        ObjectNode bank = postings.addObject();
        bank.put("accountId", "SYS-BANK");
        bank.put("currency", "USD");
        bank.put("amount", amount.negate().toPlainString());
        ObjectNode client = postings.addObject();
        client.put("accountId", account);
        client.put("currency", "USD");
        client.put("amount", amount.toPlainString());
        post(tenant, "/v1/ledger/transactions", null, txn);
    }

    /**
     * The workload's accounts are unfunded and the posting job lets them go negative (its ledger
     * check exempts them the same way): admission holds their reservations without cover.
     */
    static final java.util.Set<String> OVERDRAFT_EXEMPT =
            java.util.Set.of("HOUSE-", "SYS-", "acct-");

    /** POST /v1/orders, then POST /v1/orders/{id}/fills for each fill in order. */
    private void placeAndFill(Workload.Order o) throws Exception {
        BigDecimal limit =
                o.fills().stream()
                        .map(Workload.Fill::price)
                        .reduce(o.buy() ? BigDecimal::max : BigDecimal::min)
                        .orElseThrow();
        ObjectNode order = JSON.createObjectNode();
        order.put("clientOrderId", o.clientOrderId());
        order.put("accountId", o.account());
        order.put("symbol", o.symbol());
        order.put("side", o.buy() ? "BUY" : "SELL");
        order.put("type", "LIMIT");
        order.put("quantity", o.quantity().toPlainString());
        order.put("limitPrice", limit.toPlainString());
        order.put("currency", "USD");
        String placed = post(o.tenant(), "/v1/orders", "ord-" + o.clientOrderId(), order);
        String orderId = JSON.readTree(placed).at("/order/orderId").asText();
        for (int i = 0; i < o.fills().size(); i++) {
            Workload.Fill f = o.fills().get(i);
            ObjectNode fill = JSON.createObjectNode();
            // the workload's fill id, so the service's TradeExecuted payload carries it too
            fill.put("fillId", "f" + i);
            fill.put("quantity", f.qty().toPlainString());
            fill.put("price", f.price().toPlainString());
            fill.put("fee", f.fee().toPlainString());
            fill.put("executedAt", f.event().occurredAt().toString());
            post(o.tenant(), "/v1/orders/" + orderId + "/fills", null, fill);
        }
    }

    /** One request, retried with the same idempotency identity while the service asks for it. */
    private String post(String tenant, String path, String idempotencyKey, ObjectNode body)
            throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .header(HttpApi.HEADER_API_KEY, keyByTenant.get(tenant))
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (idempotencyKey != null) {
            b.header(HttpApi.HEADER_IDEMPOTENCY_KEY, idempotencyKey);
        }
        HttpRequest request = b.build();
        String last = "";
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            if (attempt > 1) {
                Thread.sleep(Math.min(2_000, 50L << attempt));
            }
            HttpResponse<String> r;
            try {
                r = web.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                last = e.toString();
                retried("IOException");
                continue;
            }
            if (r.statusCode() == 201) {
                requests.incrementAndGet();
                return r.body();
            }
            last = r.statusCode() + " " + r.body();
            String code = JSON.readTree(r.body()).at("/error/code").asText();
            boolean askedToRetry =
                    r.statusCode() == 503
                            || (r.statusCode() == 409 && "REQUEST_IN_PROGRESS".equals(code));
            if (!askedToRetry) {
                break;
            }
            retried(r.statusCode() + " " + code);
        }
        throw new AssertionError("POST " + path + " (" + tenant + ") not admitted: " + last);
    }

    private void retried(String reason) {
        retries.incrementAndGet();
        synchronized (retryReasons) {
            retryReasons.merge(reason, 1L, Long::sum);
        }
    }
}
