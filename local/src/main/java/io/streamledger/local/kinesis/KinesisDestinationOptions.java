package io.streamledger.local.kinesis;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * Where and how {@link KinesisStreamingDestination} forwards changes: the Kinesis endpoint (the
 * kinesis-local launcher's, or any other) and its region/credentials, batch limits, and the
 * duplicate/reorder injection AWS permits on this path (CS06: at-least-once, unordered).
 */
public final class KinesisDestinationOptions {
    /** PutRecords accepts at most 500 records per call. */
    public static final int MAX_BATCH = 500;

    /** maxAttempts: retry until sent or closed: AWS's destination retries rather than drops. */
    public static final int UNBOUNDED = 0;

    /** Linear backoff stops growing here, so a long outage is retried at least this often. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

    private final Supplier<KinesisClient> clientFactory;
    private final double duplicateProbability;
    private final double reorderProbability;
    private final long seed;
    private final int batchSize;
    private final int maxAttempts;
    private final Duration retryBackoff;
    private final int queueCapacity;
    private final Clock clock;

    private KinesisDestinationOptions(Builder b) {
        if (b.clientFactory == null) {
            if (b.endpoint == null) {
                throw new IllegalArgumentException(
                        "kinesisEndpoint (or kinesisClient) is required");
            }
            URI endpoint = b.endpoint;
            Region region = Region.of(b.region);
            AwsBasicCredentials creds = AwsBasicCredentials.create(b.accessKey, b.secretKey);
            this.clientFactory =
                    () ->
                            KinesisClient.builder()
                                    .endpointOverride(endpoint)
                                    .region(region)
                                    .credentialsProvider(StaticCredentialsProvider.create(creds))
                                    .httpClient(UrlConnectionHttpClient.create())
                                    .build();
        } else {
            this.clientFactory = b.clientFactory;
        }
        if (b.duplicateProbability < 0 || b.duplicateProbability > 1) {
            throw new IllegalArgumentException("duplicateProbability must be in [0,1]");
        }
        if (b.reorderProbability < 0 || b.reorderProbability > 1) {
            throw new IllegalArgumentException("reorderProbability must be in [0,1]");
        }
        if (b.maxAttempts < 0) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, or UNBOUNDED");
        }
        if (b.batchSize < 1 || b.batchSize > MAX_BATCH) {
            throw new IllegalArgumentException("batchSize must be 1.." + MAX_BATCH);
        }
        this.duplicateProbability = b.duplicateProbability;
        this.reorderProbability = b.reorderProbability;
        this.seed = b.seed;
        this.batchSize = b.batchSize;
        this.maxAttempts = b.maxAttempts;
        this.retryBackoff = b.retryBackoff;
        this.queueCapacity = b.queueCapacity;
        this.clock = Objects.requireNonNull(b.clock);
    }

    public static Builder builder() {
        return new Builder();
    }

    KinesisClient newClient() {
        return clientFactory.get();
    }

    double duplicateProbability() {
        return duplicateProbability;
    }

    double reorderProbability() {
        return reorderProbability;
    }

    long seed() {
        return seed;
    }

    int batchSize() {
        return batchSize;
    }

    int maxAttempts() {
        return maxAttempts;
    }

    Duration retryBackoff() {
        return retryBackoff;
    }

    int queueCapacity() {
        return queueCapacity;
    }

    Clock clock() {
        return clock;
    }

    /** Builder; defaults: us-east-1, dummy credentials, no injection, batches of 500. */
    public static final class Builder {
        private @Nullable URI endpoint;
        private String region = KinesisLocal.REGION;
        private String accessKey = KinesisLocal.ACCESS_KEY;
        private String secretKey = KinesisLocal.SECRET_KEY;
        private @Nullable Supplier<KinesisClient> clientFactory;
        private double duplicateProbability;
        private double reorderProbability;
        private long seed = 42L;
        private int batchSize = MAX_BATCH;
        private int maxAttempts = UNBOUNDED;
        private Duration retryBackoff = Duration.ofMillis(100);
        private int queueCapacity = 100_000;
        private Clock clock = Clock.systemUTC();

        public Builder kinesisEndpoint(URI endpoint) {
            this.endpoint = endpoint;
            return this;
        }

        public Builder region(String region) {
            this.region = region;
            return this;
        }

        public Builder credentials(String accessKey, String secretKey) {
            this.accessKey = accessKey;
            this.secretKey = secretKey;
            return this;
        }

        /** Uses this factory instead of endpoint/region/credentials. */
        public Builder kinesisClient(Supplier<KinesisClient> factory) {
            this.clientFactory = factory;
            return this;
        }

        /** Probability that a record is sent twice (AWS: at least once). */
        public Builder duplicateProbability(double p) {
            this.duplicateProbability = p;
            return this;
        }

        /** Probability that a record swaps places with the next one in its batch. */
        public Builder reorderProbability(double p) {
            this.reorderProbability = p;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder batchSize(int n) {
            this.batchSize = n;
            return this;
        }

        /** Attempts per batch before its records are counted failed; default UNBOUNDED. */
        public Builder maxAttempts(int n) {
            this.maxAttempts = n;
            return this;
        }

        public Builder retryBackoff(Duration d) {
            this.retryBackoff = d;
            return this;
        }

        public Builder queueCapacity(int n) {
            this.queueCapacity = n;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public KinesisDestinationOptions build() {
            return new KinesisDestinationOptions(this);
        }
    }
}
