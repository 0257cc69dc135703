package io.streamledger.local.streams;

import io.streamledger.local.export.LocalTableExports;
import io.streamledger.local.kinesis.KinesisDestinationOptions;
import io.streamledger.local.kinesis.KinesisStreamingDestination;
import io.streamledger.local.spi.ApiExtension;
import io.streamledger.local.spi.CommitListener;
import io.streamledger.local.spi.TableCatalog;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Which commit-log features a LocalEndpoint serves — DynamoDB Streams (on by default), table export
 * (on by default) and Kinesis-destination forwarding (on when a Kinesis endpoint is given) — and
 * the wiring of them into the engine's SPI (seed C84, CS09).
 */
public final class StreamFeatures {
    private final @Nullable StreamsOptions streams;
    private final boolean exports;
    private final @Nullable Path exportRoot;
    private final @Nullable KinesisDestinationOptions kinesis;

    private StreamFeatures(
            @Nullable StreamsOptions streams,
            boolean exports,
            @Nullable Path exportRoot,
            @Nullable KinesisDestinationOptions kinesis) {
        this.streams = streams;
        this.exports = exports;
        this.exportRoot = exportRoot;
        this.kinesis = kinesis;
    }

    /** Streams with default options, exports, no Kinesis destination. */
    public static StreamFeatures defaults() {
        return new StreamFeatures(StreamsOptions.defaults(), true, null, null);
    }

    /** No Streams, no export, no Kinesis destination. */
    public static StreamFeatures none() {
        return new StreamFeatures(null, false, null, null);
    }

    /** Streams with these options (their clock is replaced by the endpoint's clock). */
    public StreamFeatures withStreams(@Nullable StreamsOptions options) {
        return new StreamFeatures(options, exports, exportRoot, kinesis);
    }

    /** Exports under this directory (default: {@code <dataDir>/exports} or a temp directory). */
    public StreamFeatures withExportRoot(Path root) {
        return new StreamFeatures(streams, true, root, kinesis);
    }

    /** Forwards to Kinesis when a table enables a Kinesis streaming destination. */
    public StreamFeatures withKinesisDestination(@Nullable KinesisDestinationOptions options) {
        return new StreamFeatures(streams, exports, exportRoot, options);
    }

    /**
     * Creates the feature objects for one endpoint; the endpoint then calls {@link
     * Installed#attach}.
     */
    public Installed install(Clock endpointClock, @Nullable Path dataDir) {
        LocalDynamoDbStreams s = null;
        if (streams != null) {
            s =
                    new LocalDynamoDbStreams(
                            streams.withClock(endpointClock),
                            dataDir == null ? null : dataDir.resolve("streams"));
        }
        LocalTableExports e = null;
        if (exports) {
            Path root = exportRoot;
            if (root == null) {
                root =
                        dataDir != null
                                ? dataDir.resolve("exports")
                                : Path.of(
                                        System.getProperty("java.io.tmpdir"),
                                        "streamledger-local-exports");
            }
            e = new LocalTableExports(root, endpointClock, 100_000);
            if (s != null) {
                e.attach(s);
            }
        }
        KinesisStreamingDestination k =
                kinesis == null ? null : new KinesisStreamingDestination(kinesis);
        return new Installed(s, e, k);
    }

    /** The running feature objects of one endpoint. */
    public static final class Installed implements AutoCloseable {
        private final @Nullable LocalDynamoDbStreams streams;
        private final @Nullable LocalTableExports exports;
        private final @Nullable KinesisStreamingDestination kinesis;

        Installed(
                @Nullable LocalDynamoDbStreams streams,
                @Nullable LocalTableExports exports,
                @Nullable KinesisStreamingDestination kinesis) {
            this.streams = streams;
            this.exports = exports;
            this.kinesis = kinesis;
        }

        public @Nullable LocalDynamoDbStreams streams() {
            return streams;
        }

        public @Nullable LocalTableExports exports() {
            return exports;
        }

        public @Nullable KinesisStreamingDestination kinesisDestination() {
            return kinesis;
        }

        public List<CommitListener> commitListeners() {
            List<CommitListener> out = new ArrayList<>();
            if (streams != null) {
                out.add(streams);
            }
            if (kinesis != null) {
                out.add(kinesis);
            }
            return out;
        }

        /** Gives every feature the engine's catalog and returns their API extensions. */
        public List<ApiExtension> attach(TableCatalog catalog) {
            List<ApiExtension> out = new ArrayList<>();
            if (streams != null) {
                streams.attach(catalog);
                out.add(new StreamsApiExtension(streams));
            }
            if (exports != null) {
                exports.attach(catalog);
                out.add(exports);
            }
            if (kinesis != null) {
                kinesis.attach(catalog);
                out.add(kinesis);
            }
            return out;
        }

        @Override
        public void close() {
            if (kinesis != null) {
                kinesis.close();
            }
            if (streams != null) {
                streams.close();
            }
        }
    }
}
