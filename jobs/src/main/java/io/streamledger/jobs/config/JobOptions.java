package io.streamledger.jobs.config;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import io.streamledger.sinks.versioned.VersionedDynamoDbSink;
import io.streamledger.sinks.versioned.VersionedDynamoDbSinkBuilder;
import io.streamledger.sinks.versioned.VersionedWrite;
import io.streamledger.sinks.versioned.WriteGuard;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.sink.writer.ElementConverter;

/**
 * Every typed option of the posting and projection jobs in one place (DESIGN "Operations"; seed
 * AP09/AP13 limits): transport, AWS endpoint and credentials, stream names, starting position,
 * shard discovery, watermark idleness, table prefix, gate limits and sink limits.
 */
public final class JobOptions {

    private JobOptions() {}

    /** How change records reach the job (DESIGN "Change records"). */
    public enum TransportKind {
        /** DynamoDB Streams through FlinkDynamoDBStreamsConsumer: per-item order, 24 h. */
        DYNAMODB_STREAMS,
        /** Kinesis through KinesisStreamsSource: records may be duplicated and reordered. */
        KINESIS
    }

    /** What the Kinesis records carry. */
    public enum KinesisPayload {
        /** "Kinesis Data Streams for DynamoDB" change records of a table. */
        DYNAMODB_CHANGE,
        /** Outbox envelopes relayed by the command service's relay (OutboxEvent JSON). */
        OUTBOX_EVENT
    }

    /** Where a reader starts in a stream it has no checkpointed position for. */
    public enum StartingPosition {
        TRIM_HORIZON,
        LATEST,
        AT_TIMESTAMP
    }

    /** How the AWS clients authenticate. */
    public enum CredentialsKind {
        /** Fixed access key and secret (e.g. dummy keys for the local endpoint). */
        BASIC,
        /** The SDK default chain (environment, profile, container or instance role). */
        DEFAULT
    }

    // ---- transport and AWS ----

    public static final ConfigOption<TransportKind> TRANSPORT =
            ConfigOptions.key("streamledger.source.transport")
                    .enumType(TransportKind.class)
                    .defaultValue(TransportKind.DYNAMODB_STREAMS)
                    .withDescription(
                            "DYNAMODB_STREAMS reads the table's stream; KINESIS reads a Kinesis"
                                    + " data stream (see streamledger.source.kinesis.payload).");

    public static final ConfigOption<KinesisPayload> KINESIS_PAYLOAD =
            ConfigOptions.key("streamledger.source.kinesis.payload")
                    .enumType(KinesisPayload.class)
                    .defaultValue(KinesisPayload.DYNAMODB_CHANGE)
                    .withDescription(
                            "Record format on the Kinesis transport: DynamoDB change records or"
                                    + " relayed outbox events.");

    public static final ConfigOption<String> REGION =
            ConfigOptions.key("streamledger.aws.region")
                    .stringType()
                    .defaultValue("us-east-1")
                    .withDescription("AWS region of DynamoDB, DynamoDB Streams and Kinesis.");

    public static final ConfigOption<String> DYNAMODB_ENDPOINT =
            ConfigOptions.key("streamledger.aws.dynamodb.endpoint")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Endpoint override for DynamoDB and DynamoDB Streams, e.g."
                                    + " http://127.0.0.1:8000 for the local endpoint; unset = AWS.");

    public static final ConfigOption<String> KINESIS_ENDPOINT =
            ConfigOptions.key("streamledger.aws.kinesis.endpoint")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Endpoint override for Kinesis (plain HTTP of kinesis-local); unset ="
                                    + " AWS.");

    public static final ConfigOption<CredentialsKind> CREDENTIALS =
            ConfigOptions.key("streamledger.aws.credentials.provider")
                    .enumType(CredentialsKind.class)
                    .defaultValue(CredentialsKind.DEFAULT)
                    .withDescription(
                            "BASIC uses the access key/secret options; DEFAULT the SDK chain.");

    public static final ConfigOption<String> ACCESS_KEY_ID =
            ConfigOptions.key("streamledger.aws.credentials.access-key-id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Access key id for BASIC credentials.");

    public static final ConfigOption<String> SECRET_ACCESS_KEY =
            ConfigOptions.key("streamledger.aws.credentials.secret-access-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Secret access key for BASIC credentials.");

    // ---- stream selection ----

    public static final ConfigOption<String> STREAM_ARN =
            ConfigOptions.key("streamledger.source.stream-arn")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "DynamoDB stream ARN (DYNAMODB_STREAMS) or Kinesis stream ARN"
                                    + " (KINESIS) the job reads.");

    public static final ConfigOption<String> SOURCE_TABLE =
            ConfigOptions.key("streamledger.source.table")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Physical name of the table whose stream is read; a Streams record"
                                    + " does not name its table.");

    public static final ConfigOption<StartingPosition> STARTING_POSITION =
            ConfigOptions.key("streamledger.source.starting-position")
                    .enumType(StartingPosition.class)
                    .defaultValue(StartingPosition.TRIM_HORIZON)
                    .withDescription(
                            "Where to start without a checkpointed position. TRIM_HORIZON is the"
                                    + " safe default: consumers are idempotent (AP09/AP13).");

    public static final ConfigOption<String> STARTING_TIMESTAMP =
            ConfigOptions.key("streamledger.source.starting-timestamp")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Epoch seconds (decimal allowed) for AT_TIMESTAMP, e.g. 1764496800.5");

    public static final ConfigOption<Duration> SHARD_DISCOVERY_INTERVAL =
            ConfigOptions.key("streamledger.source.shard-discovery-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription("How often new (child) shards are discovered.");

    public static final ConfigOption<Duration> KINESIS_IDLE_PAUSE =
            ConfigOptions.key("streamledger.source.kinesis.idle-pause")
                    .durationType()
                    .defaultValue(Duration.ofMillis(200))
                    .withDescription(
                            "Kinesis transport: how long a source reader waits once every shard"
                                    + " it reads was polled and found empty (the DynamoDB Streams"
                                    + " consumer's 200 ms GetRecords interval); 0 polls without a"
                                    + " pause, as connector 4.3.0 does on its own.");

    public static final ConfigOption<Duration> WATERMARK_OUT_OF_ORDERNESS =
            ConfigOptions.key("streamledger.source.watermark.out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription("Bounded out-of-orderness of record arrival timestamps.");

    public static final ConfigOption<Duration> IDLE_SOURCE_TIMEOUT =
            ConfigOptions.key("streamledger.source.watermark.idle-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "A shard without records for this long is caught up: its share of the"
                                    + " watermark follows the wall clock minus this and the"
                                    + " out-of-orderness (a source that never delivered goes"
                                    + " idle).");

    // ---- tables ----

    public static final ConfigOption<String> TABLE_PREFIX =
            ConfigOptions.key("streamledger.tables.prefix")
                    .stringType()
                    .defaultValue("")
                    .withDescription("Deployment prefix of every physical table name.");

    public static final ConfigOption<Integer> PORTFOLIO_NAMESPACE_VERSION =
            ConfigOptions.key("streamledger.projection.namespace-version")
                    .intType()
                    .defaultValue(Tables.PORTFOLIO_INITIAL_VERSION)
                    .withDescription(
                            "Portfolio namespace version the projection writes (Portfolio_v<n>);"
                                    + " a rebuild writes a new one (CS09).");

    public static final ConfigOption<String> PROJECTION_NAME =
            ConfigOptions.key("streamledger.projection.name")
                    .stringType()
                    .defaultValue("portfolio")
                    .withDescription("Projection name in the IDX12 checkpoint key.");

    public static final ConfigOption<ViewScope> PROJECTION_SCOPE =
            ConfigOptions.key("streamledger.projection.scope")
                    .enumType(ViewScope.class)
                    .defaultValue(ViewScope.DEFAULT)
                    .withDescription(
                            "Accounts the Portfolio view holds: ALL, or CLIENTS (house contra"
                                    + " sub-accounts left out). A property of the namespace:"
                                    + " change it through a rebuild into a new one (CS09).");

    public static final ConfigOption<Duration> SHARD_MAP_REFRESH =
            ConfigOptions.key("streamledger.shard-map.refresh")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "How often the posting sink and the projection re-read the durable"
                                    + " inbox/checkpoint shard-map state (AP09/AP13 reshard); a"
                                    + " reshard's lead must exceed 3 x this.");

    // ---- gate (AP09/AP13) ----

    public static final ConfigOption<Duration> GATE_DEDUPE_HORIZON =
            ConfigOptions.key("streamledger.gate.dedupe-horizon")
                    .durationType()
                    .defaultValue(Duration.ofHours(48))
                    .withDescription("How long an applied eventId is remembered (AP09).");

    public static final ConfigOption<Duration> GATE_GAP_SLA =
            ConfigOptions.key("streamledger.gate.gap-sla")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription("A gap older than this becomes a gap break (CS07).");

    /**
     * The posting job's execution-order gate waits longer than the projection's: a backlog read
     * shard by shard at different paces (Kinesis catch-up) keeps an account's next fill minutes
     * behind its successors although nothing is lost.
     */
    public static final ConfigOption<Duration> EXEC_ORDER_GAP_SLA =
            ConfigOptions.key("streamledger.posting.exec-order.gap-sla")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "An account whose next fill (accountExecSeq) is missing this long"
                                    + " becomes an EXECUTION_ORDER_GAP break (it stays parked,"
                                    + " never skipped); must exceed the transport's catch-up skew"
                                    + " across shards.");

    // ---- dead-letter replay (CS08) ----

    public static final ConfigOption<List<String>> REPLAY_TENANTS =
            ConfigOptions.key("streamledger.replay.tenants")
                    .stringType()
                    .asList()
                    .defaultValues()
                    .withDescription(
                            "Tenants whose REPLAY_REQUESTED dead letters the job re-injects and"
                                    + " whose SKIP_REQUESTED parked gaps it applies (the queues are"
                                    + " tenant-first); empty = no replay or skip source.");

    public static final ConfigOption<Duration> REPLAY_POLL_INTERVAL =
            ConfigOptions.key("streamledger.replay.poll-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "How often the replay and skip-request sources poll their queues.");

    public static final ConfigOption<Integer> GATE_MAX_PARKED =
            ConfigOptions.key("streamledger.gate.max-parked-per-key")
                    .intType()
                    .defaultValue(1000)
                    .withDescription("Parked events per key before overflow dead-letters (AP13).");

    // ---- posting (AP09+AP10+AP12) ----

    public static final ConfigOption<String> POSTING_CONSUMER =
            ConfigOptions.key("streamledger.posting.consumer")
                    .stringType()
                    .defaultValue("posting")
                    .withDescription("Consumer name in the IDX09 inbox receipt key.");

    public static final ConfigOption<Integer> POSTING_CAPACITY =
            ConfigOptions.key("streamledger.posting.async.capacity")
                    .intType()
                    .defaultValue(64)
                    .withDescription("Fills in flight per subtask (async I/O capacity).");

    public static final ConfigOption<Duration> POSTING_TIMEOUT =
            ConfigOptions.key("streamledger.posting.async.timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(2))
                    .withDescription(
                            "A fill not posted within this (retries included) fails the job,"
                                    + " which replays it from the checkpoint; the receipt makes"
                                    + " the replay safe.");

    public static final ConfigOption<Integer> POSTING_MAX_ATTEMPTS =
            ConfigOptions.key("streamledger.posting.max-attempts")
                    .intType()
                    .defaultValue(50)
                    .withDescription(
                            "Transaction attempts per fill (throttling, 5xx, version conflicts).");

    public static final ConfigOption<Duration> POSTING_BACKOFF_BASE =
            ConfigOptions.key("streamledger.posting.backoff.base")
                    .durationType()
                    .defaultValue(Duration.ofMillis(20))
                    .withDescription("First retry delay; doubles per attempt with jitter.");

    public static final ConfigOption<Duration> POSTING_BACKOFF_MAX =
            ConfigOptions.key("streamledger.posting.backoff.max")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription("Upper bound of one retry delay.");

    public static final ConfigOption<Integer> POSTING_HOUSE_SHARDS =
            ConfigOptions.key("streamledger.posting.house-shards")
                    .intType()
                    .defaultValue(HouseAccounts.DEFAULT_SHARDS)
                    .withDescription(
                            "House (clearing/fee) accounts are split into this many sub-accounts"
                                    + " per tenant, chosen by client account; each is one posting"
                                    + " lane (one chain of transactions), so this bounds a"
                                    + " tenant's posting concurrency (≈ shards / transaction"
                                    + " latency fills/s). Changing it re-maps clients to house"
                                    + " shards (balances are sums over shards either way).");

    public static final ConfigOption<Long> POSTING_MONTH_LIMIT =
            ConfigOptions.key("streamledger.posting.month-limit")
                    .longType()
                    .defaultValue(
                            io.streamledger.model.ledger.PostingSequence.MAX_POSTINGS_PER_MONTH)
                    .withDescription(
                            "Postings admitted per account-month (at most the ledger's own"
                                    + " limit); a fill beyond it is rejected with"
                                    + " LEDGER_MONTH_LIMIT, dead-lettered and broken, and the job"
                                    + " goes on.");

    public static final ConfigOption<Duration> POSTING_RECEIPT_RETENTION =
            ConfigOptions.key("streamledger.posting.receipt-retention")
                    .durationType()
                    .defaultValue(Duration.ofDays(30))
                    .withDescription(
                            "TTL of inbox receipts; a fill admitted longer ago than this less"
                                    + " ReplayHorizon.CLOCK_SKEW is no longer replayed.");

    // ---- sink ----

    public static final ConfigOption<Integer> SINK_MAX_BATCH =
            ConfigOptions.key("streamledger.sink.max-batch-size")
                    .intType()
                    .defaultValue(5000)
                    .withDescription(
                            "Versioned sink: writes per flush before coalescing (the sink's"
                                    + " measured default; max-time-in-buffer bounds latency).");

    public static final ConfigOption<Integer> SINK_MAX_IN_FLIGHT =
            ConfigOptions.key("streamledger.sink.max-in-flight")
                    .intType()
                    .defaultValue(4)
                    .withDescription("Versioned sink: concurrent flushes.");

    public static final ConfigOption<Duration> SINK_MAX_TIME_IN_BUFFER =
            ConfigOptions.key("streamledger.sink.max-time-in-buffer")
                    .durationType()
                    .defaultValue(Duration.ofMillis(200))
                    .withDescription("Versioned sink: flush at least this often.");

    public static final ConfigOption<Integer> SINK_MAX_RETRIES =
            ConfigOptions.key("streamledger.sink.max-retries")
                    .intType()
                    .defaultValue(30)
                    .withDescription("Versioned sink: retries of a throttled write.");

    /**
     * The physical table whose stream a job reads: {@link #SOURCE_TABLE} if set, else {@code
     * spec}'s name under {@link #TABLE_PREFIX}.
     */
    public static String sourceTable(ReadableConfig conf, TableSpec spec) {
        return conf.getOptional(SOURCE_TABLE)
                .orElse(new TableNaming(conf.get(TABLE_PREFIX)).physicalName(spec));
    }

    /**
     * A version-guarded sink builder with these options' client, buffer time and retries, as every
     * versioned sink of the jobs is configured; the projection rows and break rows also take the
     * flush limits ({@link #withFlushLimits}).
     */
    public static <T> VersionedDynamoDbSinkBuilder<T> versionedSink(
            ReadableConfig conf, WriteGuard guard, ElementConverter<T, VersionedWrite> converter) {
        return VersionedDynamoDbSink.<T>builder()
                .elementConverter(converter)
                .clientConfig(dynamoDbClient(conf))
                .guard(guard)
                .maxTimeInBufferMS(conf.get(SINK_MAX_TIME_IN_BUFFER).toMillis())
                .maxRetries(conf.get(SINK_MAX_RETRIES));
    }

    /** {@code sink} with these options' writes per flush and concurrent flushes. */
    public static <T> VersionedDynamoDbSinkBuilder<T> withFlushLimits(
            VersionedDynamoDbSinkBuilder<T> sink, ReadableConfig conf) {
        return sink.maxBatchSize(conf.get(SINK_MAX_BATCH))
                .maxInFlightRequests(conf.get(SINK_MAX_IN_FLIGHT));
    }

    /** The DynamoDB client recipe these options describe. */
    public static DynamoDbClientConfig dynamoDbClient(ReadableConfig conf) {
        DynamoDbClientConfig.Builder b =
                DynamoDbClientConfig.builder()
                        .region(conf.get(REGION))
                        .endpointOverride(conf.getOptional(DYNAMODB_ENDPOINT).orElse(null));
        if (conf.get(CREDENTIALS) == CredentialsKind.BASIC) {
            b.staticCredentials(require(conf, ACCESS_KEY_ID), require(conf, SECRET_ACCESS_KEY));
        } else {
            b.defaultCredentialsChain();
        }
        return b.build();
    }

    /** The value of a required option, or a message that names it. */
    public static <T> T require(ReadableConfig conf, ConfigOption<T> option) {
        return conf.getOptional(option)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "option '" + option.key() + "' is required"));
    }
}
