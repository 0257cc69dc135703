package io.streamledger.jobs.source;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.CredentialsKind;
import io.streamledger.jobs.config.JobOptions.StartingPosition;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kinesis.source.KinesisStreamsSource;
import org.apache.flink.connector.kinesis.source.config.KinesisStreamsSourceConfigConstants;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.connectors.kinesis.FlinkDynamoDBStreamsConsumer;

/**
 * The production sources (DESIGN "Change records"): DynamoDB Streams through {@code
 * FlinkDynamoDBStreamsConsumer} or Kinesis through {@code KinesisStreamsSource}, chosen by {@link
 * JobOptions#TRANSPORT}, both yielding {@link RawChange}s stamped with their arrival time and
 * watermarked with bounded out-of-orderness and idleness.
 */
public final class ChangeSources {

    /**
     * Stable uids {@code <role>-source-<transport>-v1}: a savepoint maps shard positions back to
     * these operators, and the role keeps two jobs' sources apart when they share a graph.
     */
    public static String sourceUid(String role, TransportKind transport) {
        return role + "-source-" + transport.name().toLowerCase(java.util.Locale.ROOT) + "-v1";
    }

    public static String watermarksUid(String role) {
        return role + "-source-watermarks-v1";
    }

    // property keys of flink-connector-kinesis (AWSConfigConstants / ConsumerConfigConstants)
    static final String AWS_REGION = "aws.region";
    static final String AWS_ENDPOINT = "aws.endpoint";
    static final String AWS_CREDENTIALS_PROVIDER = "aws.credentials.provider";
    static final String AWS_ACCESS_KEY = "aws.credentials.provider.basic.accesskeyid";
    static final String AWS_SECRET_KEY = "aws.credentials.provider.basic.secretkey";
    static final String INITIAL_POSITION = "flink.stream.initpos";
    static final String SHARD_DISCOVERY_MILLIS = "flink.shard.discovery.intervalmillis";

    private ChangeSources() {}

    /**
     * The configured production source.
     *
     * @param role the job reading it, e.g. {@code posting}; part of the operator uids
     */
    public static RawChangeSource fromConfig(ReadableConfig conf, String role) {
        TransportKind transport = conf.get(JobOptions.TRANSPORT);
        String streamArn = JobOptions.require(conf, JobOptions.STREAM_ARN);
        WatermarkStrategy<RawChange> watermarks = watermarks(conf);
        if (transport == TransportKind.DYNAMODB_STREAMS) {
            Properties props = dynamoDbStreamsProperties(conf);
            return env ->
                    env.addSource(
                                    new FlinkDynamoDBStreamsConsumer<RawChange>(
                                            List.of(streamArn),
                                            new DynamoDbStreamsRawSchema(),
                                            props),
                                    "DynamoDB Streams: " + streamArn,
                                    SourceTypes.RAW_CHANGE)
                            .uid(sourceUid(role, transport))
                            .assignTimestampsAndWatermarks(watermarks)
                            .uid(watermarksUid(role))
                            .name("source: arrival-time watermarks");
        }
        Configuration sourceConfig = kinesisSourceConfig(conf);
        Duration idlePause = conf.get(JobOptions.KINESIS_IDLE_PAUSE);
        return env -> {
            KinesisStreamsSource<RawChange> source =
                    KinesisStreamsSource.<RawChange>builder()
                            .setStreamArn(streamArn)
                            .setSourceConfig(sourceConfig)
                            .setDeserializationSchema(new KinesisRawSchema())
                            .build();
            DataStream<RawChange> s =
                    env.fromSource(
                                    new IdlePacedSource<>(
                                            source, SourceTypes.RAW_CHANGE, idlePause),
                                    watermarks,
                                    "Kinesis: " + streamArn,
                                    SourceTypes.RAW_CHANGE)
                            .uid(sourceUid(role, transport));
            return s;
        };
    }

    /**
     * Arrival-time timestamps, bounded out-of-orderness per shard, caught-up shards follow the wall
     * clock ({@link CaughtUpWatermarks}).
     */
    public static WatermarkStrategy<RawChange> watermarks(ReadableConfig conf) {
        long ooo = conf.get(JobOptions.WATERMARK_OUT_OF_ORDERNESS).toMillis();
        long quiet = conf.get(JobOptions.IDLE_SOURCE_TIMEOUT).toMillis();
        return WatermarkStrategy.<RawChange>forGenerator(
                        ctx ->
                                new CaughtUpWatermarks(
                                        ooo,
                                        quiet,
                                        System::currentTimeMillis,
                                        ctx.getInputActivityClock()::relativeTimeMillis))
                .withTimestampAssigner((r, previous) -> r.getArrivalMillis());
    }

    /** Properties for {@code FlinkDynamoDBStreamsConsumer}. */
    public static Properties dynamoDbStreamsProperties(ReadableConfig conf) {
        Properties p = new Properties();
        p.setProperty(AWS_REGION, conf.get(JobOptions.REGION));
        conf.getOptional(JobOptions.DYNAMODB_ENDPOINT)
                .ifPresent(e -> p.setProperty(AWS_ENDPOINT, e));
        if (conf.get(JobOptions.CREDENTIALS) == CredentialsKind.BASIC) {
            p.setProperty(AWS_CREDENTIALS_PROVIDER, "BASIC");
            p.setProperty(AWS_ACCESS_KEY, JobOptions.require(conf, JobOptions.ACCESS_KEY_ID));
            p.setProperty(AWS_SECRET_KEY, JobOptions.require(conf, JobOptions.SECRET_ACCESS_KEY));
        } else {
            p.setProperty(AWS_CREDENTIALS_PROVIDER, "AUTO");
        }
        StartingPosition start = conf.get(JobOptions.STARTING_POSITION);
        if (start == StartingPosition.AT_TIMESTAMP) {
            // GetShardIterator of DynamoDB Streams knows TRIM_HORIZON, LATEST and sequence
            // numbers only: fail at submission, not in a restart loop on the first shard
            throw new IllegalArgumentException(
                    JobOptions.STARTING_POSITION.key()
                            + "=AT_TIMESTAMP is not supported by DynamoDB Streams (TRIM_HORIZON or"
                            + " LATEST only); use the KINESIS transport, or rebuild from a table"
                            + " export with the savepoint backfill");
        }
        p.setProperty(INITIAL_POSITION, start.name());
        p.setProperty(
                SHARD_DISCOVERY_MILLIS,
                Long.toString(conf.get(JobOptions.SHARD_DISCOVERY_INTERVAL).toMillis()));
        return p;
    }

    /** Configuration for {@code KinesisStreamsSource}. */
    public static Configuration kinesisSourceConfig(ReadableConfig conf) {
        Configuration c = new Configuration();
        c.setString(AWS_REGION, conf.get(JobOptions.REGION));
        conf.getOptional(JobOptions.KINESIS_ENDPOINT).ifPresent(e -> c.setString(AWS_ENDPOINT, e));
        if (conf.get(JobOptions.CREDENTIALS) == CredentialsKind.BASIC) {
            c.setString(AWS_CREDENTIALS_PROVIDER, "BASIC");
            c.setString(AWS_ACCESS_KEY, JobOptions.require(conf, JobOptions.ACCESS_KEY_ID));
            c.setString(AWS_SECRET_KEY, JobOptions.require(conf, JobOptions.SECRET_ACCESS_KEY));
        } else {
            c.setString(AWS_CREDENTIALS_PROVIDER, "AUTO");
        }
        StartingPosition start = conf.get(JobOptions.STARTING_POSITION);
        c.set(
                KinesisStreamsSourceConfigConstants.STREAM_INITIAL_POSITION,
                KinesisStreamsSourceConfigConstants.InitialPosition.valueOf(start.name()));
        if (start == StartingPosition.AT_TIMESTAMP) {
            c.set(
                    KinesisStreamsSourceConfigConstants.STREAM_INITIAL_TIMESTAMP,
                    JobOptions.require(conf, JobOptions.STARTING_TIMESTAMP));
        }
        c.set(
                KinesisStreamsSourceConfigConstants.SHARD_DISCOVERY_INTERVAL_MILLIS,
                conf.get(JobOptions.SHARD_DISCOVERY_INTERVAL).toMillis());
        return c;
    }
}
