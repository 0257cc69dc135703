package io.streamledger.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.DynamoDbEngine;
import io.streamledger.local.fault.FaultInjector;
import io.streamledger.local.partiql.PartiQlApi;
import io.streamledger.local.server.Credentials;
import io.streamledger.local.server.Dispatcher;
import io.streamledger.local.server.HttpFront;
import io.streamledger.local.spi.ApiExtension;
import io.streamledger.local.spi.CommitListener;
import io.streamledger.local.spi.StreamSettings;
import io.streamledger.local.spi.TableCatalog;
import io.streamledger.local.streams.StreamFeatures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embeddable local DynamoDB-compatible endpoint (the test and demo stack of CS01–CS09): engine,
 * HTTP front, fault injector, TTL sweeper; built with {@link #builder()}, started with {@link
 * #start()}, stopped with {@link #close()}.
 */
public final class LocalEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalEndpoint.class);

    private final Builder config;
    private final FaultInjector faults = new FaultInjector();
    private final DynamoDbEngine engine;
    private final HttpFront front;
    private final StreamFeatures.Installed streamFeatures;
    private @Nullable ScheduledExecutorService sweeper;

    private LocalEndpoint(Builder b) {
        this.config = b;
        ObjectMapper mapper = AttributeValues.newMapper();
        // an explicit streamSettings replaces the built-in Streams feature
        this.streamFeatures =
                (b.streamSettings != null ? b.streamFeatures.withStreams(null) : b.streamFeatures)
                        .install(b.clock, b.dataDir);
        StreamSettings settings =
                b.streamSettings != null ? b.streamSettings : streamFeatures.streams();
        this.engine = new DynamoDbEngine(mapper, b.clock, faults, settings, b.dataDir, b.fsync);
        engine.configureIndexBackfill(b.backfillChunkItems, b.backfillPause);
        streamFeatures.commitListeners().forEach(engine::addCommitListener);
        b.commitListeners.forEach(engine::addCommitListener);
        List<ApiExtension> extensions = new ArrayList<>(b.extensions);
        for (Function<TableCatalog, ApiExtension> f : b.extensionFactories) {
            extensions.add(f.apply(engine));
        }
        Set<String> explicitTargets = new HashSet<>();
        extensions.forEach(e -> explicitTargets.addAll(e.targets()));
        List<ApiExtension> features = new ArrayList<>(streamFeatures.attach(engine));
        features.add(new PartiQlApi(engine));
        for (ApiExtension feature : features) {
            // explicitly registered extensions win over a built-in feature serving the same target
            if (Collections.disjoint(feature.targets(), explicitTargets)) {
                extensions.add(feature);
            }
        }
        try {
            this.front =
                    new HttpFront(
                            mapper,
                            new Dispatcher(
                                    engine,
                                    extensions,
                                    faults,
                                    new Credentials(b.accessKeys, b.requireAuthentication)),
                            faults,
                            engine,
                            b.host,
                            b.port,
                            b.threads);
        } catch (IOException e) {
            engine.close();
            throw new UncheckedIOException("cannot bind " + b.host + ":" + b.port, e);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts serving; returns this. */
    public LocalEndpoint start() {
        front.start();
        if (config.ttlSweepInterval != null) {
            sweeper =
                    Executors.newSingleThreadScheduledExecutor(
                            r -> {
                                Thread t = new Thread(r, "local-dynamodb-ttl-sweeper");
                                t.setDaemon(true);
                                return t;
                            });
            long ms = config.ttlSweepInterval.toMillis();
            sweeper.scheduleWithFixedDelay(this::sweepQuietly, ms, ms, TimeUnit.MILLISECONDS);
        }
        LOG.info("local DynamoDB endpoint on {}", endpoint());
        return this;
    }

    private void sweepQuietly() {
        try {
            engine.sweepExpired();
        } catch (RuntimeException e) {
            LOG.warn("TTL sweep failed", e);
        }
    }

    /** {@code http://host:port} for {@code endpointOverride}. */
    public URI endpoint() {
        return URI.create("http://" + config.host + ":" + port());
    }

    public int port() {
        return front.port();
    }

    public FaultInjector faults() {
        return faults;
    }

    /** Tables, descriptions and consistent snapshots, for extensions and tests. */
    public TableCatalog catalog() {
        return engine;
    }

    /** Streams, export and Kinesis-destination objects of this endpoint (see StreamFeatures). */
    public StreamFeatures.Installed streamFeatures() {
        return streamFeatures;
    }

    /**
     * Holds (true) or releases online GSI backfills before their next chunk, so a test can observe
     * an index while it is CREATING.
     */
    public void holdIndexBackfills(boolean hold) {
        engine.holdIndexBackfills(hold);
    }

    /** Runs the TTL sweeper once now; returns the number of expired items deleted. */
    public int sweepExpiredItems() {
        return engine.sweepExpired();
    }

    @Override
    public void close() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
        front.close();
        engine.close();
        streamFeatures.close();
    }

    /** Configuration of a {@link LocalEndpoint}. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private @Nullable Path dataDir;
        private boolean fsync;
        private Clock clock = Clock.systemUTC();
        private final List<ApiExtension> extensions = new ArrayList<>();
        private final List<Function<TableCatalog, ApiExtension>> extensionFactories =
                new ArrayList<>();
        private final List<CommitListener> commitListeners = new ArrayList<>();
        private @Nullable StreamSettings streamSettings;
        private StreamFeatures streamFeatures = StreamFeatures.defaults();
        private @Nullable Set<String> accessKeys;
        private boolean requireAuthentication;
        private @Nullable Duration ttlSweepInterval = Duration.ofSeconds(5);
        private int backfillChunkItems = 1000;
        private Duration backfillPause = Duration.ZERO;
        private int threads = Math.max(16, Runtime.getRuntime().availableProcessors() * 8);

        private Builder() {}

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** 0 picks a free port. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Enables persistence: an append-only log in this directory, replayed on start. */
        public Builder dataDir(@Nullable Path dataDir) {
            this.dataDir = dataDir;
            return this;
        }

        /** Also fsync each log record (survives power loss, not only kill -9); slower. */
        public Builder fsync(boolean fsync) {
            this.fsync = fsync;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public Builder extension(ApiExtension extension) {
            extensions.add(extension);
            return this;
        }

        /** An extension that needs the engine's {@link TableCatalog}. */
        public Builder extensionFactory(Function<TableCatalog, ApiExtension> factory) {
            extensionFactories.add(factory);
            return this;
        }

        public Builder commitListener(CommitListener listener) {
            commitListeners.add(listener);
            return this;
        }

        /** Streams/export/Kinesis-destination features; default: Streams + export. */
        public Builder streamFeatures(StreamFeatures features) {
            this.streamFeatures = features;
            return this;
        }

        public Builder streamSettings(StreamSettings settings) {
            this.streamSettings = settings;
            return this;
        }

        /** Strict mode: only these SigV4 access key ids are accepted. */
        /**
         * Refuses requests without a SigV4 Authorization header
         * (MissingAuthenticationTokenException) or with an incomplete one
         * (IncompleteSignatureException), as DynamoDB does; any credentials are accepted and
         * signatures are not checked. Off by default.
         */
        public Builder requireAuthentication(boolean require) {
            this.requireAuthentication = require;
            return this;
        }

        public Builder strictCredentials(Set<String> accessKeyIds) {
            this.accessKeys = Set.copyOf(accessKeyIds);
            return this;
        }

        /** How often the TTL sweeper runs; null disables it (use sweepExpiredItems()). */
        public Builder ttlSweepInterval(@Nullable Duration interval) {
            this.ttlSweepInterval = interval;
            return this;
        }

        /** HTTP worker threads. */
        /**
         * Pace of online GSI backfills (UpdateTable Create): items indexed per commit-lock hold
         * (default 1000) and the pause between chunks (default none).
         */
        public Builder indexBackfill(int chunkItems, Duration pauseBetweenChunks) {
            this.backfillChunkItems = chunkItems;
            this.backfillPause = pauseBetweenChunks;
            return this;
        }

        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        public LocalEndpoint build() {
            return new LocalEndpoint(this);
        }
    }
}
