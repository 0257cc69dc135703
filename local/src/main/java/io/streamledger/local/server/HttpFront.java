package io.streamledger.local.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.streamledger.local.dynamodb.DynamoDbEngine;
import io.streamledger.local.fault.FaultInjector;
import io.streamledger.local.fault.FaultRule;
import io.streamledger.local.spi.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * The HTTP face of the endpoint (the local stack of CS01–CS09) on the JDK's built-in server: AWS
 * JSON 1.0 on {@code POST /}, and the admin paths {@code /__admin/faults} (GET list, POST add,
 * DELETE clear) and {@code /__admin/ttl/sweep} (POST). Like DynamoDB it takes gzip/deflate request
 * bodies, gzips responses for clients that accept it, signs every body with {@code x-amz-crc32},
 * answers CORS preflights, {@code GET /} health probes and DescribeEndpoints.
 */
public final class HttpFront implements AutoCloseable {
    static final String CONTENT_TYPE = "application/x-amz-json-1.0";
    static final String ADMIN_FAULTS = "/__admin/faults";
    static final String ADMIN_TTL_SWEEP = "/__admin/ttl/sweep";
    static final String DESCRIBE_ENDPOINTS = "DynamoDB_20120810.DescribeEndpoints";
    private static final String CORS_HEADERS =
            "Content-Type, Content-Encoding, Authorization, X-Amz-Target, X-Amz-Date,"
                    + " X-Amz-Security-Token, X-Amz-User-Agent, amz-sdk-invocation-id,"
                    + " amz-sdk-request";

    static {
        // small responses: without TCP_NODELAY, Nagle + delayed ACK add ~40 ms per request
        defaultProperty("sun.net.httpserver.nodelay", "true");
        // The JDK server closes keep-alive connections beyond 200 idle ones and after 30 s idle;
        // pooled SDK clients (Netty keeps idle connections 60 s, a job opens 64+ per subtask) then
        // reuse a closed socket and see "Connection reset" / "Unexpected end of file" (measured in
        // FreshnessBenchmark with client retries off). Keep more, longer, than clients do.
        defaultProperty("sun.net.httpserver.maxIdleConnections", "4096");
        defaultProperty("sun.net.httpserver.idleInterval", "120");
    }

    /** Sets a JDK server property unless the user already did (read once, at first use). */
    private static void defaultProperty(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }

    private final ObjectMapper mapper;
    private final Dispatcher dispatcher;
    private final FaultInjector faults;
    private final DynamoDbEngine engine;
    private final HttpServer server;
    private final ExecutorService executor;
    private final AtomicLong requestIds = new AtomicLong();
    private final String requestIdPrefix = Long.toHexString(System.nanoTime());

    public HttpFront(
            ObjectMapper mapper,
            Dispatcher dispatcher,
            FaultInjector faults,
            DynamoDbEngine engine,
            String host,
            int port,
            int threads)
            throws IOException {
        this.mapper = mapper;
        this.dispatcher = dispatcher;
        this.faults = faults;
        this.engine = engine;
        this.server = HttpServer.create(new InetSocketAddress(host, port), 1024);
        AtomicInteger n = new AtomicInteger();
        ThreadFactory tf =
                r -> {
                    Thread t = new Thread(r, "local-dynamodb-http-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                };
        this.executor = Executors.newFixedThreadPool(threads, tf);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    public void start() {
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (path.startsWith("/__admin/")) {
                admin(exchange, path);
                return;
            }
            byte[] raw;
            try (InputStream in = exchange.getRequestBody()) {
                raw = in.readAllBytes();
            }
            String method = exchange.getRequestMethod();
            if (method.equals("OPTIONS")) {
                preflight(exchange);
                return;
            }
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            if (!method.equals("POST")) {
                // DynamoDB answers an unauthenticated GET / (load balancers' health probe) in text
                writeBytes(
                        exchange,
                        200,
                        "text/plain",
                        ("healthy: dynamodb." + DynamoDbEngine.REGION + ".amazonaws.com ")
                                .getBytes(StandardCharsets.UTF_8));
                return;
            }
            JsonNode response;
            int status = 200;
            try {
                byte[] body =
                        HttpEncoding.decodeRequest(
                                exchange.getRequestHeaders().getFirst("Content-Encoding"), raw);
                JsonNode request;
                try {
                    request = body.length == 0 ? mapper.createObjectNode() : mapper.readTree(body);
                } catch (JsonProcessingException e) {
                    throw new ApiException(
                            "SerializationException",
                            400,
                            "Could not parse request body: " + e.getOriginalMessage());
                }
                response =
                        DESCRIBE_ENDPOINTS.equals(target)
                                ? describeEndpoints(exchange)
                                : dispatcher.dispatch(
                                        target,
                                        exchange.getRequestHeaders().getFirst("Authorization"),
                                        request);
            } catch (ApiException e) {
                status = e.httpStatus();
                response = Dispatcher.errorBody(mapper, e);
            } catch (RuntimeException e) {
                Dispatcher.logUnexpected(target, e);
                ApiException ie =
                        new ApiException("InternalServerError", 500, "Internal server error: " + e);
                status = 500;
                response = Dispatcher.errorBody(mapper, ie);
            }
            write(exchange, status, response);
        }
    }

    private void admin(HttpExchange exchange, String path) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        String method = exchange.getRequestMethod();
        try {
            if (path.equals(ADMIN_FAULTS)) {
                switch (method) {
                    case "GET" -> {
                        ArrayNode a = mapper.createArrayNode();
                        faults.rules().forEach(r -> a.add(r.toJson()));
                        write(exchange, 200, mapper.createObjectNode().set("faults", a));
                    }
                    case "POST" -> {
                        FaultRule r = faults.add(FaultRule.fromJson(mapper.readTree(body)));
                        write(exchange, 200, r.toJson());
                    }
                    case "DELETE" -> {
                        faults.clear();
                        write(exchange, 200, mapper.createObjectNode().put("cleared", true));
                    }
                    default -> write(exchange, 405, mapper.createObjectNode().put("error", method));
                }
            } else if (path.startsWith(ADMIN_FAULTS + "/") && method.equals("DELETE")) {
                boolean removed = faults.remove(path.substring(ADMIN_FAULTS.length() + 1));
                write(
                        exchange,
                        removed ? 200 : 404,
                        mapper.createObjectNode().put("removed", removed));
            } else if (path.equals(ADMIN_TTL_SWEEP) && method.equals("POST")) {
                int n = engine.sweepExpired();
                write(exchange, 200, mapper.createObjectNode().put("deleted", n));
            } else {
                write(exchange, 404, mapper.createObjectNode().put("error", "no such admin path"));
            }
        } catch (IOException | IllegalArgumentException e) {
            write(
                    exchange,
                    400,
                    mapper.createObjectNode().put("error", String.valueOf(e.getMessage())));
        }
    }

    /** DescribeEndpoints: this endpoint is its own (regional) endpoint, cached for a day. */
    private JsonNode describeEndpoints(HttpExchange exchange) {
        dispatcher.authenticate(exchange.getRequestHeaders().getFirst("Authorization"));
        String host = exchange.getRequestHeaders().getFirst("Host");
        ObjectNode out = mapper.createObjectNode();
        out.putArray("Endpoints")
                .addObject()
                .put("Address", host != null ? host : "127.0.0.1:" + port())
                .put("CachePeriodInMinutes", 1440);
        return out;
    }

    /** CORS preflight, as DynamoDB answers browsers (NoSQL Workbench, JS SDK in a page). */
    private void preflight(HttpExchange exchange) throws IOException {
        var req = exchange.getRequestHeaders();
        var h = exchange.getResponseHeaders();
        h.set("Access-Control-Allow-Origin", "*");
        h.set("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
        String asked = req.getFirst("Access-Control-Request-Headers");
        h.set("Access-Control-Allow-Headers", asked != null ? asked : CORS_HEADERS);
        h.set("Access-Control-Max-Age", "172800");
        h.set("x-amzn-RequestId", requestIdPrefix + "-" + requestIds.incrementAndGet());
        exchange.sendResponseHeaders(200, -1);
    }

    private void write(HttpExchange exchange, int status, JsonNode response) throws IOException {
        writeBytes(exchange, status, CONTENT_TYPE, mapper.writeValueAsBytes(response));
    }

    private void writeBytes(HttpExchange exchange, int status, String contentType, byte[] bytes)
            throws IOException {
        var h = exchange.getResponseHeaders();
        String encoding =
                HttpEncoding.responseEncoding(
                        exchange.getRequestHeaders().getFirst("Accept-Encoding"), bytes.length);
        if (encoding != null) {
            bytes = HttpEncoding.gzip(bytes);
            h.set("Content-Encoding", encoding);
        }
        // the CRC covers the bytes on the wire, compressed or not, as the SDKs check it
        CRC32 crc = new CRC32();
        crc.update(bytes);
        h.set("Content-Type", contentType);
        h.set("x-amzn-RequestId", requestIdPrefix + "-" + requestIds.incrementAndGet());
        h.set("x-amz-crc32", Long.toString(crc.getValue()));
        if (exchange.getRequestHeaders().containsKey("Origin")) {
            h.set("Access-Control-Allow-Origin", "*");
            h.set("Access-Control-Expose-Headers", "x-amzn-RequestId,x-amzn-ErrorType,x-amz-crc32");
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
