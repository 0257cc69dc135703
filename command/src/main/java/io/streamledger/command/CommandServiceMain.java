package io.streamledger.command;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.metrics.DynamoDbMetricsRecorder;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.aws.tables.GlobalTablesCheck;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.metrics.CommandMetrics;
import io.streamledger.command.metrics.MetricsServer;
import io.streamledger.command.outbox.KinesisPublisher;
import io.streamledger.command.schedule.DutyMetrics;
import io.streamledger.command.schedule.TimeDrivenDuties;
import io.streamledger.model.calendar.ExchangeCalendars;
import io.streamledger.model.lease.LeaseTiming;
import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.table.TableNaming;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.KinesisClientBuilder;

/**
 * Starts the command service: HTTP admission plus, unless turned off, the AP16 relay, the AP18
 * repair worker and the time-driven duties (DAY/GTD expiry, AP15 escalation), after a start-up
 * check of the deployment's Global Tables mode.
 */
@Command(
        name = "command-service",
        mixinStandardHelpOptions = true,
        description = "streamledger command service (orders, fills, ledger) on DynamoDB")
public final class CommandServiceMain implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "8080", description = "HTTP port (0 = random)")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "HTTP bind address")
    String bind;

    @Option(
            names = "--dynamodb-endpoint",
            description = "DynamoDB endpoint override, e.g. http://127.0.0.1:8000")
    URI dynamodbEndpoint;

    @Option(
            names = "--metrics-port",
            defaultValue = "-1",
            description =
                    "admin port serving GET /metrics (Prometheus text; no API key, bind it"
                            + " privately); -1 = off (default), 0 = random")
    int metricsPort;

    @Option(
            names = "--metrics-bind",
            defaultValue = "127.0.0.1",
            description = "metrics admin bind address")
    String metricsBind;

    @Option(
            names = "--hot-keys",
            defaultValue = "10",
            description = "partition keys kept per AP hot-key sketch (default: ${DEFAULT-VALUE})")
    int hotKeys;

    @Option(names = "--region", defaultValue = "us-east-1")
    String region;

    @Option(names = "--table-prefix", defaultValue = "", description = "physical table name prefix")
    String tablePrefix;

    @Option(names = "--api-keys-file", description = "lines of '<tenant> <sha256 hex of key>'")
    Path apiKeysFile;

    @Option(
            names = "--create-tables",
            description =
                    "create missing tables from the model's TableSpecs, Portfolio_v1 and its"
                            + " alias item (an existing alias is kept)")
    boolean createTables;

    @Option(
            names = "--relay",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "run the AP16 outbox relay (default: on)")
    boolean relay;

    @Option(
            names = "--repair",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "run the AP18 idempotency repair worker (default: on)")
    boolean repair;

    @Option(
            names = "--kinesis-endpoint",
            description = "Kinesis endpoint override, e.g. http://127.0.0.1:4567")
    URI kinesisEndpoint;

    @Option(
            names = "--stream",
            defaultValue = "streamledger-outbox",
            description = "Kinesis stream of outbox events")
    String stream;

    @Option(names = "--lease-seconds", defaultValue = "5", description = "AP08 IN_PROGRESS lease")
    int leaseSeconds;

    @Option(
            names = "--expiry",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "expire DAY/GTD orders on schedule (default: on)")
    boolean expiry;

    @Option(
            names = "--escalation",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "escalate overdue AP15 breaks on schedule (default: on)")
    boolean escalation;

    @Option(
            names = "--escalation-owner",
            defaultValue = "ops-escalations",
            description = "owner of a break escalated on schedule (default: ${DEFAULT-VALUE})")
    String escalationOwner;

    @Option(
            names = "--max-clock-skew-ms",
            defaultValue = "2000",
            description =
                    "largest clock difference between instances the leases tolerate (outbox,"
                            + " duties; default: ${DEFAULT-VALUE})")
    long maxClockSkewMs;

    @Option(
            names = "--calendar",
            description =
                    "venue calendars of time in force (JSON, see README); default: the bundled"
                            + " XNYS calendar for every currency")
    Path calendar;

    @Option(
            names = "--recovery-settings",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description =
                    "with --create-tables: point-in-time recovery and deletion protection on the"
                            + " authority tables (default: on)")
    boolean recoverySettings;

    @Option(
            names = "--house-shards",
            defaultValue = "" + HouseAccounts.DEFAULT_SHARDS,
            description =
                    "the posting job's streamledger.posting.house-shards: where a fill's contra"
                            + " lines are when a bust or reversal reads them back")
    int houseShards;

    @Option(
            names = "--symbol-shards",
            description =
                    "AP06 write sharding of the symbol index (JSON file; see README); default"
                            + " unsharded")
    java.nio.file.Path symbolShards;

    @Option(
            names = "--hash-key",
            description = "print the SHA-256 of an API key for the keys file and exit")
    String hashKey;

    @Override
    public Integer call() throws Exception {
        if (hashKey != null) {
            System.out.println(ApiKeyAuthenticator.sha256Hex(hashKey));
            return 0;
        }
        if (apiKeysFile == null) {
            System.err.println("--api-keys-file is required");
            return 2;
        }
        ApiKeyAuthenticator auth = ApiKeyAuthenticator.fromFile(apiKeysFile);
        CommandMetrics metrics = new CommandMetrics(hotKeys);
        DynamoDbClient dynamo = dynamoClient(dynamodbEndpoint, region, metrics.dynamo());
        TableNaming naming = new TableNaming(tablePrefix);
        try {
            // refuse before anything is created: AP08/AP09/AP12 never on MREC replicas
            GlobalTablesCheck.requireAllowed(dynamo, naming);
        } catch (IllegalStateException refused) {
            System.err.println(refused.getMessage());
            dynamo.close();
            return 2;
        }
        if (createTables) {
            TableProvisioner.createAll(
                    dynamo, tablePrefix, TableProvisioner.Recovery.of(recoverySettings));
            TableProvisioner.provisionLiveNamespace(dynamo, naming);
        }
        ServiceConfig cfg =
                ServiceConfig.defaults(tablePrefix)
                        .withLease(Duration.ofSeconds(leaseSeconds))
                        .withHouseShards(houseShards);
        if (symbolShards != null) {
            cfg =
                    cfg.withSymbolSharding(
                            io.streamledger.model.shard.SymbolSharding.parse(
                                    java.nio.file.Files.readString(symbolShards)));
        }
        if (calendar != null) {
            cfg = cfg.withCalendars(ExchangeCalendars.parse(Files.readString(calendar)));
        }
        LocalDate horizon = LocalDate.now(cfg.clock()).plusDays(90);
        cfg.calendars()
                .notCovering(horizon)
                .forEach(
                        c ->
                                System.err.println(
                                        "warning: calendar "
                                                + c.venue()
                                                + " lists holidays only through "
                                                + c.coveredThrough()
                                                + "; extend it (--calendar)"));
        CommandService service = new CommandService(dynamo, cfg, RetryPolicy.defaults());
        HttpApi http = service.http(auth).observeRequests(metrics::httpRequest).start(bind, port);
        MetricsServer metricsServer =
                metricsPort < 0 ? null : MetricsServer.start(metrics, metricsBind, metricsPort);
        String owner = "cs-" + UUID.randomUUID();
        DutyMetrics dutyMetrics = new DutyMetrics(metrics.registry());
        TimeDrivenDuties.Settings defaults = TimeDrivenDuties.Settings.defaults();
        Duration skew = Duration.ofMillis(maxClockSkewMs);
        TimeDrivenDuties duties =
                TimeDrivenDuties.create(
                                service,
                                auth::tenants,
                                owner,
                                dutyMetrics,
                                new TimeDrivenDuties.Settings(
                                        new LeaseTiming(defaults.lease().ttl(), skew),
                                        defaults.expiryInterval(),
                                        skew,
                                        defaults.escalationInterval(),
                                        escalationOwner,
                                        defaults.repairInterval(),
                                        expiry,
                                        escalation,
                                        repair))
                        .start();
        KinesisClient kinesis = null;
        if (relay) {
            kinesis = kinesisClient(kinesisEndpoint, region);
            duties.startRelay(new KinesisPublisher(kinesis, stream), Duration.ofMillis(200));
        }
        System.out.println(
                "command service listening on http://"
                        + bind
                        + ":"
                        + http.port()
                        + " (relay "
                        + (relay ? "on" : "off")
                        + ", "
                        + duties.describe()
                        + (metricsServer == null
                                ? ""
                                : ", metrics http://"
                                        + metricsBind
                                        + ":"
                                        + metricsServer.port()
                                        + "/metrics")
                        + ")");
        CountDownLatch stop = new CountDownLatch(1);
        KinesisClient k = kinesis;
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    http.close();
                                    if (metricsServer != null) {
                                        metricsServer.close();
                                    }
                                    duties.close();
                                    if (k != null) {
                                        k.close();
                                    }
                                    dynamo.close();
                                    stop.countDown();
                                },
                                "command-service-shutdown"));
        stop.await();
        return 0;
    }

    /** The service's DynamoDB client: SDK retries off, the service's one retry policy decides. */
    public static DynamoDbClient dynamoClient(URI endpoint, String region) {
        return dynamoClient(endpoint, region, null);
    }

    /** As {@link #dynamoClient(URI, String)}, every call recorded per AP by {@code metrics}. */
    public static DynamoDbClient dynamoClient(
            URI endpoint, String region, @Nullable DynamoDbMetricsRecorder metrics) {
        // Apache client: pooled keep-alive connections with TCP_NODELAY
        return DynamoDbClientConfig.forEndpoint(endpoint, region)
                .apacheHttpClient(256)
                .sdkMaxAttempts(1)
                .build()
                .buildSyncClient(metrics);
    }

    static KinesisClient kinesisClient(URI endpoint, String region) {
        KinesisClientBuilder b =
                KinesisClient.builder()
                        .region(Region.of(region))
                        .httpClient(UrlConnectionHttpClient.create());
        if (endpoint != null) {
            b.endpointOverride(endpoint)
                    .credentialsProvider(
                            StaticCredentialsProvider.create(
                                    AwsBasicCredentials.create("local", "local")));
        } else {
            b.credentialsProvider(DefaultCredentialsProvider.builder().build());
        }
        return b.build();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new CommandServiceMain()).execute(args));
    }
}
