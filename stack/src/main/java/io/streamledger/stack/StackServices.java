package io.streamledger.stack;

import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.CommandServiceMain;
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
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.kinesis.KinesisDestinationOptions;
import io.streamledger.local.kinesis.KinesisLocal;
import io.streamledger.local.streams.StreamFeatures;
import io.streamledger.local.streams.StreamsOptions;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * The non-Flink half of the local stack (DESIGN "Operations"): the local DynamoDB endpoint with
 * Streams and every table of the model's TableSpecs (IDX01–IDX19), the command service with its API
 * keys (CS01–CS05, CS10–CS11) with its time-driven duties (DAY/GTD expiry, AP15 escalation, AP18
 * repair) and, on the Kinesis transport, kinesis-local plus the AP16 outbox relay and the Ledger
 * table's Kinesis streaming destination. Closes in reverse start order.
 */
final class StackServices implements AutoCloseable {

    /** Kinesis stream of relayed outbox events (posting job's input on the Kinesis transport). */
    static final String OUTBOX_STREAM = "streamledger-outbox";

    /** Kinesis stream of the Ledger table's change records (projection job's input). */
    static final String LEDGER_CDC_STREAM = "streamledger-ledger-cdc";

    private final List<AutoCloseable> closeInReverse = new ArrayList<>();
    final LocalEndpoint endpoint;
    final DynamoDbClient ddb;
    final TableNaming naming = new TableNaming("");
    final Map<String, String> apiKeys;
    final HttpApi http;
    final @Nullable KinesisLocal kinesis;

    /** The command service's metrics (its own instrumented client, HTTP routes). */
    final CommandMetrics commandMetrics = CommandMetrics.create();

    /** Its time-driven duties' metrics (expiry, escalation, lease recovery), in that registry. */
    final DutyMetrics dutyMetrics = new DutyMetrics(commandMetrics.registry());

    /** The command service's admin port serving {@code /metrics}, when asked for. */
    final @Nullable MetricsServer metricsServer;

    StackServices(
            Path dataDir,
            int endpointPort,
            int commandPort,
            Map<String, String> apiKeysByTenant,
            boolean kinesisTransport) {
        this(dataDir, endpointPort, commandPort, null, apiKeysByTenant, kinesisTransport);
    }

    StackServices(
            Path dataDir,
            int endpointPort,
            int commandPort,
            @Nullable Integer commandMetricsPort,
            Map<String, String> apiKeysByTenant,
            boolean kinesisTransport) {
        this.apiKeys = Map.copyOf(apiKeysByTenant);
        try {
            // installed once per clone (./.kinesis-local), not per data dir: --reset keeps it
            kinesis = kinesisTransport ? KinesisLocal.start() : null;
            if (kinesis != null) {
                closeInReverse.add(kinesis);
                kinesis.createStream(OUTBOX_STREAM, 2);
                kinesis.createStream(LEDGER_CDC_STREAM, 2);
            }
            StreamFeatures features =
                    StreamFeatures.defaults()
                            .withStreams(StreamsOptions.builder().shardsPerTable(2).build())
                            .withExportRoot(dataDir.resolve("exports"));
            if (kinesis != null) {
                features =
                        features.withKinesisDestination(
                                KinesisDestinationOptions.builder()
                                        .kinesisEndpoint(kinesis.endpoint())
                                        .build());
            }
            endpoint =
                    LocalEndpoint.builder()
                            .host("127.0.0.1")
                            .port(endpointPort)
                            .dataDir(dataDir.resolve("dynamodb"))
                            .streamFeatures(features)
                            .build()
                            .start();
            closeInReverse.add(endpoint);
            ddb = CommandServiceMain.dynamoClient(endpoint.endpoint(), "us-east-1");
            closeInReverse.add(ddb);
            createTables();
            if (kinesis != null) {
                String ledger = naming.physicalName(Tables.LEDGER);
                ddb.enableKinesisStreamingDestination(
                        b ->
                                b.tableName(ledger)
                                        .streamArn(KinesisLocal.streamArn(LEDGER_CDC_STREAM)));
            }

            ApiKeyAuthenticator.Builder keys = ApiKeyAuthenticator.builder();
            apiKeys.forEach(keys::key);
            // read-only ops keys, so the summary's ops links can be followed
            apiKeys.keySet()
                    .forEach(
                            t ->
                                    keys.key(
                                            t,
                                            OpsLinks.auditorKey(t),
                                            ApiKeyAuthenticator.Role.AUDITOR));
            ApiKeyAuthenticator auth = keys.build();
            ServiceConfig cfg = ServiceConfig.defaults("");
            // the service's own client records its calls per AP; the stack's probes stay out
            DynamoDbClient commandDdb =
                    CommandServiceMain.dynamoClient(
                            endpoint.endpoint(), "us-east-1", commandMetrics.dynamo());
            closeInReverse.add(commandDdb);
            CommandService service = new CommandService(commandDdb, cfg, RetryPolicy.defaults());
            http =
                    service.http(auth)
                            .observeRequests(commandMetrics::httpRequest)
                            .start("127.0.0.1", commandPort);
            closeInReverse.add(http);
            metricsServer =
                    commandMetricsPort == null
                            ? null
                            : MetricsServer.start(commandMetrics, "127.0.0.1", commandMetricsPort);
            if (metricsServer != null) {
                closeInReverse.add(metricsServer);
            }
            String owner = "stack-" + UUID.randomUUID();
            KinesisClient kc = kinesis == null ? null : KinesisLocal.newClient(kinesis.endpoint());
            if (kc != null) {
                closeInReverse.add(kc);
            }
            // the service's time-driven duties over the tenants of its keys (closed before kc)
            TimeDrivenDuties duties =
                    TimeDrivenDuties.create(
                                    service,
                                    auth::tenants,
                                    owner,
                                    dutyMetrics,
                                    TimeDrivenDuties.Settings.defaults())
                            .start();
            closeInReverse.add(duties);
            if (kc != null) {
                duties.startRelay(new KinesisPublisher(kc, OUTBOX_STREAM), Duration.ofMillis(100));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Every table of the model; creating an existing one is a no-op, so a reused dir works. */
    private void createTables() {
        TableProvisioner.createModelTables(ddb, naming);
    }

    String table(TableSpec spec) {
        return naming.physicalName(spec);
    }

    String portfolioTable() {
        return naming.physicalName(Tables.PORTFOLIO, Tables.PORTFOLIO_INITIAL_VERSION);
    }

    String commandMetricsUrl() {
        return metricsServer == null
                ? null
                : "http://127.0.0.1:" + metricsServer.port() + "/metrics";
    }

    /** True when the AP16 relay runs (the Kinesis transport). */
    boolean relayRunning() {
        return kinesis != null;
    }

    String commandUrl() {
        return "http://127.0.0.1:" + http.port();
    }

    /** Which accounts the Portfolio view holds: the projection's and every reader's scope. */
    private ViewScope viewScope = ViewScope.DEFAULT;

    void viewScope(ViewScope scope) {
        this.viewScope = scope;
    }

    ViewScope viewScope() {
        return viewScope;
    }

    /** Options of the job reading {@code spec}'s changes on the chosen transport. */
    Configuration jobConfig(TableSpec spec, boolean outboxOverKinesis) {
        Configuration c = new Configuration();
        // the projection writes this scope, the reconciliation compares within it
        c.set(JobOptions.PROJECTION_SCOPE, viewScope);
        c.set(JobOptions.DYNAMODB_ENDPOINT, endpoint.endpoint().toString());
        c.set(JobOptions.REGION, "us-east-1");
        c.set(JobOptions.CREDENTIALS, JobOptions.CredentialsKind.BASIC);
        c.set(JobOptions.ACCESS_KEY_ID, "local");
        c.set(JobOptions.SECRET_ACCESS_KEY, "local");
        c.set(JobOptions.SHARD_DISCOVERY_INTERVAL, Duration.ofSeconds(1));
        c.set(JobOptions.STARTING_POSITION, JobOptions.StartingPosition.TRIM_HORIZON);
        c.set(JobOptions.SOURCE_TABLE, table(spec));
        if (kinesis == null) {
            c.set(JobOptions.TRANSPORT, JobOptions.TransportKind.DYNAMODB_STREAMS);
            c.set(
                    JobOptions.STREAM_ARN,
                    ddb.describeTable(b -> b.tableName(table(spec))).table().latestStreamArn());
        } else {
            c.set(JobOptions.TRANSPORT, JobOptions.TransportKind.KINESIS);
            c.set(JobOptions.KINESIS_ENDPOINT, kinesis.endpoint().toString());
            c.set(
                    JobOptions.KINESIS_PAYLOAD,
                    outboxOverKinesis
                            ? JobOptions.KinesisPayload.OUTBOX_EVENT
                            : JobOptions.KinesisPayload.DYNAMODB_CHANGE);
            c.set(
                    JobOptions.STREAM_ARN,
                    KinesisLocal.streamArn(outboxOverKinesis ? OUTBOX_STREAM : LEDGER_CDC_STREAM));
        }
        return c;
    }

    /** Options of a job reading {@code spec}'s DynamoDB stream whatever the stack's transport. */
    Configuration streamsConfig(TableSpec spec) {
        Configuration c = jobConfig(spec, false);
        c.set(JobOptions.TRANSPORT, JobOptions.TransportKind.DYNAMODB_STREAMS);
        c.removeConfig(JobOptions.KINESIS_PAYLOAD);
        c.set(JobOptions.STREAM_ARN, streamArn(spec));
        return c;
    }

    /** The reconciliation job's declared window (AP14) as the run command sets it. */
    record ReconWindow(Duration size, Duration allowedLateness, Duration outOfOrderness) {}

    /**
     * The reconciliation job's options: Execution, Ledger and Orders streams (DynamoDB Streams).
     */
    Configuration reconConfig(ReconWindow window) {
        Configuration c = streamsConfig(Tables.LEDGER);
        c.removeConfig(JobOptions.SOURCE_TABLE);
        c.set(ReconOptions.RECON_WINDOW, window.size());
        c.set(ReconOptions.RECON_ALLOWED_LATENESS, window.allowedLateness());
        c.set(ReconOptions.RECON_OUT_OF_ORDERNESS, window.outOfOrderness());
        c.set(ReconOptions.EXECUTION_STREAM_ARN, streamArn(Tables.EXECUTION));
        c.set(ReconOptions.LEDGER_STREAM_ARN, streamArn(Tables.LEDGER));
        c.set(ReconOptions.ORDERS_STREAM_ARN, streamArn(Tables.ORDERS));
        return c;
    }

    String streamArn(TableSpec spec) {
        return ddb.describeTable(b -> b.tableName(table(spec))).table().latestStreamArn();
    }

    @Override
    public void close() {
        for (int i = closeInReverse.size() - 1; i >= 0; i--) {
            try {
                closeInReverse.get(i).close();
            } catch (Exception e) {
                System.err.println("close failed: " + e);
            }
        }
        closeInReverse.clear();
    }
}
