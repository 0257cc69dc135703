package io.streamledger.command.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.orders.OrderQueries;
import io.streamledger.command.orders.OrderService;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP surface (Javalin): authenticates every /v1 request by API key (tenant from the key),
 * bounds and strictly parses bodies, and writes each response with the capacity it consumed.
 */
public final class HttpApi implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);

    public static final String HEADER_API_KEY = "X-Api-Key";
    public static final String HEADER_IDEMPOTENCY_KEY = "Idempotency-Key";
    public static final String HEADER_CAPACITY = "X-Consumed-Capacity";
    public static final String HEADER_REPLAYED = "Idempotent-Replayed";

    private static final String ATTR_TENANT = "sl.tenant";
    private static final String ATTR_METER = "sl.meter";
    private static final String ATTR_PRINCIPAL = "sl.principal";

    /** Routes under this prefix are for ops roles; every other /v1 route is for traders. */
    static final String OPS_PREFIX = "/v1/ops/";

    private final Javalin app;

    /** The services the routes call; each may be null to leave its routes out. */
    public record Services(
            OrderService orders,
            OrderQueries orderQueries,
            io.streamledger.command.fills.FillService fills,
            io.streamledger.command.fills.TradeQueries trades,
            io.streamledger.command.ledger.LedgerService ledger,
            io.streamledger.command.ledger.BalanceQueries balances,
            io.streamledger.command.portfolio.PortfolioQueries portfolio,
            io.streamledger.command.ops.DeadLetterRepository deadLetters,
            io.streamledger.command.orders.CancelService cancels,
            io.streamledger.command.ops.OpsApi ops,
            io.streamledger.command.fills.BustService busts) {

        /** Without the bust route. */
        public Services(
                OrderService orders,
                OrderQueries orderQueries,
                io.streamledger.command.fills.FillService fills,
                io.streamledger.command.fills.TradeQueries trades,
                io.streamledger.command.ledger.LedgerService ledger,
                io.streamledger.command.ledger.BalanceQueries balances,
                io.streamledger.command.portfolio.PortfolioQueries portfolio,
                io.streamledger.command.ops.DeadLetterRepository deadLetters,
                io.streamledger.command.orders.CancelService cancels,
                io.streamledger.command.ops.OpsApi ops) {
            this(
                    orders,
                    orderQueries,
                    fills,
                    trades,
                    ledger,
                    balances,
                    portfolio,
                    deadLetters,
                    cancels,
                    ops,
                    null);
        }

        /** Without the cancel route: the ops test fixtures. */
        public Services(
                OrderService orders,
                OrderQueries orderQueries,
                io.streamledger.command.fills.FillService fills,
                io.streamledger.command.fills.TradeQueries trades,
                io.streamledger.command.ledger.LedgerService ledger,
                io.streamledger.command.ledger.BalanceQueries balances,
                io.streamledger.command.portfolio.PortfolioQueries portfolio,
                io.streamledger.command.ops.DeadLetterRepository deadLetters,
                io.streamledger.command.ops.OpsApi ops) {
            this(
                    orders,
                    orderQueries,
                    fills,
                    trades,
                    ledger,
                    balances,
                    portfolio,
                    deadLetters,
                    null,
                    ops);
        }

        /** Without the ops routes. */
        public Services(
                OrderService orders,
                OrderQueries orderQueries,
                io.streamledger.command.fills.FillService fills,
                io.streamledger.command.fills.TradeQueries trades,
                io.streamledger.command.ledger.LedgerService ledger,
                io.streamledger.command.ledger.BalanceQueries balances,
                io.streamledger.command.portfolio.PortfolioQueries portfolio) {
            this(
                    orders,
                    orderQueries,
                    fills,
                    trades,
                    ledger,
                    balances,
                    portfolio,
                    null,
                    null,
                    null);
        }
    }

    /** Request threads (Javalin's default is 250); excess requests wait in Jetty's queue. */
    public static final int MAX_THREADS = 64;

    public HttpApi(ApiKeyAuthenticator auth, Services s) {
        this.app =
                Javalin.create(
                        cfg -> {
                            cfg.showJavalinBanner = false;
                            // handlers block on DynamoDB: more threads than the SDK can keep
                            // busy only contend for its connection pool's lock and the CPU
                            QueuedThreadPool pool = new QueuedThreadPool(MAX_THREADS, 8, 60_000);
                            pool.setName("JettyServerThreadPool");
                            cfg.jetty.threadPool = pool;
                            cfg.http.maxRequestSize = StrictJson.MAX_BODY_BYTES;
                            cfg.requestLogger.http(this::observe);
                        });
        authenticate(app, auth);
        app.get("/health", ctx -> ctx.json(Map.of("status", "UP")));
        registerIfPresent(s.orders(), HttpApi::orderRoutes);
        registerIfPresent(s.cancels(), HttpApi::cancelRoutes);
        registerIfPresent(s.busts(), HttpApi::bustRoutes);
        registerIfPresent(s.orderQueries(), HttpApi::orderQueryRoutes);
        registerIfPresent(s.fills(), HttpApi::fillRoutes);
        registerIfPresent(s.trades(), HttpApi::tradeRoutes);
        registerIfPresent(s.ledger(), HttpApi::ledgerRoutes);
        registerIfPresent(s.balances(), HttpApi::balanceRoutes);
        registerIfPresent(s.portfolio(), HttpApi::portfolioRoutes);
        registerIfPresent(s.deadLetters(), HttpApi::deadLetterRoutes);
        registerIfPresent(s.ops(), (a, ops) -> ops.register(a));
        errorHandlers(app);
    }

    /** Sees every finished request (metrics); route is the matched template. */
    @FunctionalInterface
    public interface RequestObserver {
        void request(String method, String route, int status, double seconds);
    }

    private volatile RequestObserver observer;

    /** Reports every finished request to {@code o} (set before {@link #start}). */
    public HttpApi observeRequests(RequestObserver o) {
        this.observer = o;
        return this;
    }

    private void observe(Context ctx, Float millis) {
        RequestObserver o = observer;
        if (o == null) {
            return;
        }
        String route;
        try {
            route = ctx.endpointHandlerPath();
        } catch (RuntimeException e) {
            route = "unmatched";
        }
        o.request(ctx.method().name(), route, ctx.statusCode(), millis / 1000.0);
    }

    /** Registers one resource's routes on the app. */
    @FunctionalInterface
    private interface Registrar<T> {
        void register(Javalin app, T service);
    }

    private <T> void registerIfPresent(T service, Registrar<T> registrar) {
        if (service != null) {
            registrar.register(app, service);
        }
    }

    /**
     * Every /v1 request carries a known API key; its tenant is the request's tenant and its role
     * decides the routes: trader for today's routes, an ops role for {@code /v1/ops/} (auditor
     * reads only); an ops request naming another tenant in {@code ?tenant=} is 403.
     */
    private static void authenticate(Javalin app, ApiKeyAuthenticator auth) {
        app.before(
                "/v1/*",
                ctx -> {
                    ctx.attribute(ATTR_METER, new CapacityMeter());
                    String key = ctx.header(HEADER_API_KEY);
                    if (key == null) {
                        String authz = ctx.header("Authorization");
                        if (authz != null && authz.startsWith("Bearer ")) {
                            key = authz.substring("Bearer ".length());
                        }
                    }
                    ApiKeyAuthenticator.Principal who = auth.principalFor(key).orElse(null);
                    if (who == null) {
                        throw new ApiException(
                                401,
                                "UNAUTHENTICATED",
                                "missing or unknown API key (send it in the "
                                        + HEADER_API_KEY
                                        + " header)");
                    }
                    authorize(ctx, who);
                    ctx.attribute(ATTR_TENANT, who.tenant());
                    ctx.attribute(ATTR_PRINCIPAL, who);
                });
    }

    private static void authorize(Context ctx, ApiKeyAuthenticator.Principal who) {
        ApiKeyAuthenticator.Role role = who.role();
        if (!ctx.path().startsWith(OPS_PREFIX)) {
            if (role != ApiKeyAuthenticator.Role.TRADER) {
                throw forbidden("role " + role.label() + " may not use " + ctx.path());
            }
            return;
        }
        boolean read = "GET".equals(ctx.method().name());
        if (read ? !role.mayReadOps() : !role.mayActOnOps()) {
            throw forbidden(
                    "role "
                            + role.label()
                            + " may not "
                            + (read ? "read" : "change")
                            + " ops resources");
        }
        String named = ctx.queryParam("tenant");
        if (named != null && !named.equals(who.tenant())) {
            throw new ApiException(
                    403,
                    "CROSS_TENANT",
                    "this key is scoped to its own tenant, not '" + named + "'");
        }
    }

    private static ApiException forbidden(String message) {
        return new ApiException(403, "FORBIDDEN", message);
    }

    /** GET/POST /v1/ops/dead-letters (CS08): list, show, replay, discard. */
    private static void deadLetterRoutes(
            Javalin app, io.streamledger.command.ops.DeadLetterRepository repo) {
        app.get(
                "/v1/ops/dead-letters",
                ctx -> {
                    onlyParams(
                            ctx,
                            java.util.Set.of(
                                    "job", "reason", "status", "limit", "cursor", "tenant"));
                    String job = ctx.queryParam("job");
                    if (job == null || job.isEmpty()) {
                        throw ApiException.badRequest(
                                "MISSING_PARAMETER", "query parameter 'job' is required");
                    }
                    Fields.checkId("query parameter 'job'", job);
                    var reason =
                            enumParam(
                                    ctx,
                                    "reason",
                                    io.streamledger.model.deadletter.DeadLetterReason.class);
                    var status =
                            enumParam(
                                    ctx,
                                    "status",
                                    io.streamledger.model.deadletter.DeadLetterStatus.class);
                    Integer limit = limit(ctx);
                    if (limit != null
                            && (limit < 1
                                    || limit
                                            > io.streamledger.command.ops.DeadLetterRepository
                                                    .MAX_PAGE)) {
                        throw ApiException.badRequest(
                                "INVALID_FIELD",
                                "limit must be in [1, "
                                        + io.streamledger.command.ops.DeadLetterRepository.MAX_PAGE
                                        + "]");
                    }
                    writeRead(
                            ctx,
                            io.streamledger.command.ops.DeadLetterDocs.page(
                                    repo.list(
                                            tenant(ctx),
                                            job,
                                            reason,
                                            status,
                                            limit,
                                            ctx.queryParam("cursor"))));
                });
        app.get(
                "/v1/ops/dead-letters/{id}",
                ctx -> {
                    onlyParams(ctx, java.util.Set.of("tenant"));
                    var ref = deadLetterRef(ctx);
                    writeRead(
                            ctx,
                            io.streamledger.command.ops.DeadLetterDocs.entry(
                                    repo.show(tenant(ctx), ref)
                                            .orElseThrow(
                                                    () ->
                                                            ApiException.notFound(
                                                                    "no dead letter "
                                                                            + ctx.pathParam(
                                                                                    "id")))));
                });
        app.post(
                "/v1/ops/dead-letters/{id}/replay",
                ctx -> {
                    onlyParams(ctx, java.util.Set.of("tenant"));
                    var ref = deadLetterRef(ctx);
                    Fields f = Fields.of(optionalBody(ctx));
                    Long expected = f.optionalLong("expectedVersion");
                    String note = f.optionalText("note", 500);
                    f.rejectUnknown();
                    writeChange(ctx, repo.replay(tenant(ctx), ref, expected, actor(ctx), note));
                });
        app.post(
                "/v1/ops/dead-letters/{id}/discard",
                ctx -> {
                    onlyParams(ctx, java.util.Set.of("tenant"));
                    var ref = deadLetterRef(ctx);
                    Fields f = Fields.of(body(ctx));
                    String reason = f.optionalText("reason", 500);
                    if (reason == null || reason.isBlank()) {
                        throw ApiException.badRequest(
                                "MISSING_FIELD", "required field 'reason' is missing");
                    }
                    Long expected = f.optionalLong("expectedVersion");
                    if (expected == null) {
                        throw ApiException.badRequest(
                                "MISSING_FIELD", "required field 'expectedVersion' is missing");
                    }
                    f.rejectUnknown();
                    writeChange(ctx, repo.discard(tenant(ctx), ref, expected, actor(ctx), reason));
                });
    }

    private static io.streamledger.aws.deadletter.DeadLetterRef deadLetterRef(Context ctx) {
        try {
            return io.streamledger.aws.deadletter.DeadLetterRef.parse(ctx.pathParam("id"));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("INVALID_FIELD", e.getMessage());
        }
    }

    public static <E extends Enum<E>> E enumParam(Context ctx, String name, Class<E> type) {
        String v = ctx.queryParam(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Enum.valueOf(type, v);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(
                    "INVALID_FIELD",
                    "query parameter '"
                            + name
                            + "' must be one of "
                            + java.util.Arrays.toString(type.getEnumConstants()));
        }
    }

    /** The authenticated caller of a /v1 request. */
    public static ApiKeyAuthenticator.Principal principal(Context ctx) {
        return ctx.attribute(ATTR_PRINCIPAL);
    }

    public static String actor(Context ctx) {
        return ctx.<ApiKeyAuthenticator.Principal>attribute(ATTR_PRINCIPAL).actor();
    }

    /** An empty body is an empty object (replay's fields are optional). */
    public static ObjectNode optionalBody(Context ctx) throws IOException {
        if (ctx.req().getContentLengthLong() == 0) {
            return StrictJson.MAPPER.createObjectNode();
        }
        return body(ctx);
    }

    /**
     * 200 with the entry after the change; 404; 409 naming the entry's current status/version, or
     * why its reason is never replayed.
     */
    private static void writeChange(
            Context ctx, io.streamledger.command.ops.DeadLetterRepository.Result r)
            throws JsonProcessingException {
        switch (r.outcome()) {
            case DONE ->
                    writeRead(ctx, io.streamledger.command.ops.DeadLetterDocs.entry(r.current()));
            case NOT_FOUND -> throw ApiException.notFound("no dead letter " + ctx.pathParam("id"));
            case CONFLICT ->
                    throw ApiException.conflict(
                            "STALE_VERSION",
                            "dead letter is "
                                    + r.current().status()
                                    + " at version "
                                    + r.current().version()
                                    + "; only an OPEN entry at the expected version can change");
            case NOT_REPLAYABLE ->
                    throw ApiException.conflict(
                            "NOT_REPLAYABLE", r.current().reason().replayRefusal());
        }
    }

    /** POST /v1/orders (CS01 admission). */
    private static void orderRoutes(Javalin app, OrderService orders) {
        app.post(
                "/v1/orders",
                ctx -> {
                    String key = idempotencyKey(ctx);
                    ObjectNode body = body(ctx);
                    writeOutcome(ctx, orders.place(tenant(ctx), key, body, meter(ctx)));
                });
    }

    /** POST /v1/orders/{id}/cancel and …/expire (CS04/CS11: release the remaining reservation). */
    private static void cancelRoutes(
            Javalin app, io.streamledger.command.orders.CancelService cancels) {
        app.post(
                "/v1/orders/{id}/cancel",
                ctx ->
                        writeOutcome(
                                ctx, cancels.cancel(tenant(ctx), ctx.pathParam("id"), meter(ctx))));
        app.post(
                "/v1/orders/{id}/expire",
                ctx ->
                        writeOutcome(
                                ctx, cancels.expire(tenant(ctx), ctx.pathParam("id"), meter(ctx))));
    }

    /** POST /v1/orders/{id}/fills/{fillId}/bust (CS04/CS11: reverse a posted fill). */
    private static void bustRoutes(Javalin app, io.streamledger.command.fills.BustService busts) {
        app.post(
                "/v1/orders/{id}/fills/{fillId}/bust",
                ctx ->
                        writeOutcome(
                                ctx,
                                busts.bust(
                                        tenant(ctx),
                                        ctx.pathParam("id"),
                                        ctx.pathParam("fillId"),
                                        meter(ctx))));
    }

    /** GET one order and an account's orders (AP01/AP03). */
    private static void orderQueryRoutes(Javalin app, OrderQueries orderQueries) {
        app.get(
                "/v1/orders/{id}",
                ctx ->
                        writeRead(
                                ctx,
                                orderQueries.get(tenant(ctx), ctx.pathParam("id"), meter(ctx))));
        app.get(
                "/v1/accounts/{a}/orders",
                ctx ->
                        writeRead(
                                ctx,
                                orderQueries.listByAccount(
                                        tenant(ctx),
                                        ctx.pathParam("a"),
                                        ctx.queryParam("status"),
                                        ctx.queryParam("cursor"),
                                        limit(ctx),
                                        meter(ctx))));
    }

    /** POST /v1/orders/{id}/fills (CS04). */
    private static void fillRoutes(Javalin app, io.streamledger.command.fills.FillService fills) {
        app.post(
                "/v1/orders/{id}/fills",
                ctx -> {
                    ObjectNode body = body(ctx);
                    writeOutcome(
                            ctx, fills.fill(tenant(ctx), ctx.pathParam("id"), body, meter(ctx)));
                });
    }

    /** GET trades by order, account and symbol (AP04-AP06). */
    private static void tradeRoutes(
            Javalin app, io.streamledger.command.fills.TradeQueries trades) {
        app.get(
                "/v1/orders/{id}/trades",
                ctx ->
                        writeRead(
                                ctx,
                                trades.byOrder(
                                        tenant(ctx),
                                        ctx.pathParam("id"),
                                        ctx.queryParam("cursor"),
                                        limit(ctx),
                                        meter(ctx))));
        app.get(
                "/v1/accounts/{a}/trades",
                ctx ->
                        writeRead(
                                ctx,
                                trades.byAccount(
                                        tenant(ctx),
                                        ctx.pathParam("a"),
                                        ctx.queryParam("cursor"),
                                        limit(ctx),
                                        meter(ctx))));
        app.get(
                "/v1/symbols/{s}/trades",
                ctx ->
                        writeRead(
                                ctx,
                                trades.bySymbol(
                                        tenant(ctx),
                                        ctx.pathParam("s"),
                                        ctx.queryParam("from"),
                                        ctx.queryParam("cursor"),
                                        limit(ctx),
                                        meter(ctx))));
    }

    /** POST ledger transactions and reservation lifecycle (CS11, AP12). */
    private static void ledgerRoutes(
            Javalin app, io.streamledger.command.ledger.LedgerService ledger) {
        app.post(
                "/v1/ledger/transactions",
                ctx -> {
                    ObjectNode body = body(ctx);
                    writeOutcome(ctx, ledger.post(tenant(ctx), body, meter(ctx)));
                });
        app.post(
                "/v1/ledger/reservations",
                ctx -> {
                    ObjectNode body = body(ctx);
                    writeOutcome(ctx, ledger.reserve(tenant(ctx), body, meter(ctx)));
                });
        app.post(
                "/v1/ledger/reservations/{id}/release",
                ctx -> {
                    ObjectNode body = body(ctx);
                    writeOutcome(
                            ctx,
                            ledger.release(tenant(ctx), ctx.pathParam("id"), body, meter(ctx)));
                });
        app.post(
                "/v1/ledger/reservations/{id}/consume",
                ctx -> {
                    ObjectNode body = body(ctx);
                    writeOutcome(
                            ctx,
                            ledger.consume(tenant(ctx), ctx.pathParam("id"), body, meter(ctx)));
                });
    }

    /** GET an account's AP12 balances. */
    private static void balanceRoutes(
            Javalin app, io.streamledger.command.ledger.BalanceQueries balances) {
        app.get(
                "/v1/accounts/{a}/balances",
                ctx ->
                        writeRead(
                                ctx,
                                balances.balances(tenant(ctx), ctx.pathParam("a"), meter(ctx))));
        // AP11: the account-month statement (merged buckets, one cursor) and its summary
        app.get(
                "/v1/accounts/{a}/ledger",
                ctx -> {
                    onlyParams(ctx, java.util.Set.of("month", "asset", "limit", "cursor"));
                    writeRead(
                            ctx,
                            balances.statements()
                                    .page(
                                            tenant(ctx),
                                            ctx.pathParam("a"),
                                            ctx.queryParam("month"),
                                            ctx.queryParam("asset"),
                                            limit(ctx),
                                            ctx.queryParam("cursor"),
                                            meter(ctx)));
                });
        app.get(
                "/v1/accounts/{a}/ledger/summary",
                ctx -> {
                    onlyParams(ctx, java.util.Set.of("month"));
                    writeRead(
                            ctx,
                            balances.statements()
                                    .summary(
                                            tenant(ctx),
                                            ctx.pathParam("a"),
                                            ctx.queryParam("month"),
                                            meter(ctx)));
                });
    }

    /** GET an account's AP07 portfolio view. */
    private static void portfolioRoutes(
            Javalin app, io.streamledger.command.portfolio.PortfolioQueries portfolio) {
        app.get(
                "/v1/accounts/{a}/portfolio",
                ctx -> {
                    onlyParams(ctx, io.streamledger.command.portfolio.PortfolioQueries.PARAMS);
                    writeRead(
                            ctx,
                            portfolio.portfolio(
                                    tenant(ctx),
                                    ctx.pathParam("a"),
                                    ctx.queryParam("symbol"),
                                    ctx.queryParam("cursor"),
                                    limit(ctx),
                                    meter(ctx)));
                });
    }

    /** API errors as JSON with their status; anything else is a logged 500; unknown routes 404. */
    private static void errorHandlers(Javalin app) {
        app.exception(
                ApiException.class,
                (e, ctx) -> {
                    e.headers().forEach(ctx::header);
                    capacityHeader(ctx);
                    ctx.status(e.status())
                            .contentType("application/json")
                            .result(ErrorBodies.json(e));
                });
        app.exception(
                Exception.class,
                (e, ctx) -> {
                    LOG.error("unhandled error on {} {}", ctx.method(), ctx.path(), e);
                    capacityHeader(ctx);
                    ctx.status(500)
                            .contentType("application/json")
                            .result(ErrorBodies.json("INTERNAL", "internal error"));
                });
        app.error(
                404,
                ctx -> {
                    if (ctx.result() == null || ctx.result().isEmpty()) {
                        ctx.contentType("application/json")
                                .result(ErrorBodies.json("NOT_FOUND", "no route " + ctx.path()));
                    }
                });
    }

    public HttpApi start(String host, int port) {
        app.start(host, port);
        return this;
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }

    public static String tenant(Context ctx) {
        return ctx.attribute(ATTR_TENANT);
    }

    private static CapacityMeter meter(Context ctx) {
        return ctx.attribute(ATTR_METER);
    }

    public static Integer limit(Context ctx) {
        String l = ctx.queryParam("limit");
        if (l == null) {
            return null;
        }
        try {
            return Integer.valueOf(l);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("INVALID_FIELD", "limit must be an integer");
        }
    }

    /** Query parameters like body fields: unknown or repeated ones are 400, never ignored. */
    public static void onlyParams(Context ctx, java.util.Set<String> allowed) {
        for (Map.Entry<String, java.util.List<String>> e : ctx.queryParamMap().entrySet()) {
            if (!allowed.contains(e.getKey())) {
                throw ApiException.badRequest(
                        "UNKNOWN_PARAMETER",
                        "unknown query parameter '"
                                + e.getKey()
                                + "'; allowed: "
                                + new java.util.TreeSet<>(allowed));
            }
            if (e.getValue().size() > 1) {
                throw ApiException.badRequest(
                        "INVALID_FIELD", "query parameter '" + e.getKey() + "' is repeated");
            }
        }
    }

    private static String idempotencyKey(Context ctx) {
        String key = ctx.header(HEADER_IDEMPOTENCY_KEY);
        if (key == null || key.isEmpty()) {
            throw ApiException.badRequest(
                    "MISSING_IDEMPOTENCY_KEY", "header " + HEADER_IDEMPOTENCY_KEY + " is required");
        }
        return Fields.checkId("header " + HEADER_IDEMPOTENCY_KEY, key);
    }

    /** Reads at most MAX_BODY_BYTES + 1 bytes, so an oversized body is 413 without buffering it. */
    public static ObjectNode body(Context ctx) throws IOException {
        long declared = ctx.req().getContentLengthLong();
        if (declared > StrictJson.MAX_BODY_BYTES) {
            throw StrictJson.tooLarge(declared);
        }
        byte[] bytes;
        try (InputStream in = ctx.req().getInputStream()) {
            bytes = in.readNBytes(StrictJson.MAX_BODY_BYTES + 1);
        }
        if (bytes.length > StrictJson.MAX_BODY_BYTES) {
            throw StrictJson.tooLarge(bytes.length);
        }
        return StrictJson.parseObject(bytes);
    }

    private static void capacityHeader(Context ctx) {
        CapacityMeter m = ctx.attribute(ATTR_METER);
        if (m != null) {
            ctx.header(HEADER_CAPACITY, m.headerValue());
        }
    }

    private static ObjectNode meta(CapacityMeter m, Boolean replayed) {
        ObjectNode meta = StrictJson.MAPPER.createObjectNode();
        ObjectNode cc = meta.putObject("consumedCapacity");
        cc.put("total", m.total());
        ObjectNode by = cc.putObject("byTarget");
        m.byTarget().forEach(by::put);
        if (replayed != null) {
            meta.put("replayed", replayed);
        }
        return meta;
    }

    private static void writeOutcome(Context ctx, IdempotentExecutor.Outcome outcome)
            throws JsonProcessingException {
        CapacityMeter m = meter(ctx);
        // a fresh tree of the stored body (never shared), so no copy before adding meta
        ObjectNode doc = (ObjectNode) StrictJson.MAPPER.readTree(outcome.response().body());
        doc.set("meta", meta(m, outcome.replayed()));
        capacityHeader(ctx);
        ctx.header(HEADER_REPLAYED, Boolean.toString(outcome.replayed()));
        ctx.status(outcome.response().status())
                .contentType("application/json")
                .result(StrictJson.MAPPER.writeValueAsString(doc));
    }

    public static void writeRead(Context ctx, ObjectNode body) throws JsonProcessingException {
        CapacityMeter m = meter(ctx);
        body.set("meta", meta(m, null));
        capacityHeader(ctx);
        ctx.status(200)
                .contentType("application/json")
                .result(StrictJson.MAPPER.writeValueAsString(body));
    }
}
