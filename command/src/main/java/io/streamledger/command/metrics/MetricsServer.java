package io.streamledger.command.metrics;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The command service's admin port: {@code GET /metrics} in the Prometheus text format, apart from
 * the tenant-authenticated API port so a scraper needs no API key (bind it to a private address).
 */
public final class MetricsServer implements AutoCloseable {
    /** Content type of Prometheus text format 0.0.4. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Serves {@code metrics} on {@code bind}:{@code port} (0 = a free port). */
    public static MetricsServer start(CommandMetrics metrics, String bind, int port) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 16);
            server.createContext(
                    "/metrics",
                    exchange -> {
                        try (exchange) {
                            if (!"GET".equals(exchange.getRequestMethod())) {
                                exchange.sendResponseHeaders(405, -1);
                                return;
                            }
                            byte[] body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
                            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
                            exchange.sendResponseHeaders(200, body.length);
                            try (OutputStream out = exchange.getResponseBody()) {
                                out.write(body);
                            }
                        }
                    });
            ExecutorService executor =
                    Executors.newSingleThreadExecutor(
                            r -> {
                                Thread t = new Thread(r, "metrics-http");
                                t.setDaemon(true);
                                return t;
                            });
            server.setExecutor(executor);
            server.start();
            return new MetricsServer(server, executor);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind metrics port " + bind + ":" + port, e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
