package io.streamledger.stack.it;

import io.streamledger.command.config.TableProvisioner;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.streams.LocalDynamoDbStreams;
import io.streamledger.local.streams.StreamFeatures;
import io.streamledger.local.streams.StreamsOptions;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The local endpoint with DynamoDB Streams and the tables of the posting and projection jobs, a
 * unique table prefix per test, plus small SDK helpers for the ITCases and the freshness benchmark
 * ({@code jobs.bench}).
 */
public final class LocalStack implements AutoCloseable {

    public final LocalEndpoint endpoint;
    public final LocalDynamoDbStreams streams;
    public final DynamoDbClient ddb;
    public final String prefix;
    public final TableNaming naming;

    LocalStack(String prefix, boolean shuffleTransactions) {
        this(prefix, shuffleTransactions, null, false);
    }

    LocalStack(
            String prefix,
            boolean shuffleTransactions,
            @javax.annotation.Nullable
                    io.streamledger.local.kinesis.KinesisDestinationOptions kinesisDestination) {
        this(prefix, shuffleTransactions, kinesisDestination, false);
    }

    /**
     * With a Kinesis destination ("Kinesis Data Streams for DynamoDB") when options are given, and
     * the command service's own tables (its provisioning) when {@code commandTables}.
     */
    public LocalStack(
            String prefix,
            boolean shuffleTransactions,
            @javax.annotation.Nullable
                    io.streamledger.local.kinesis.KinesisDestinationOptions kinesisDestination,
            boolean commandTables) {
        this.prefix = prefix;
        this.naming = new TableNaming(prefix);
        this.endpoint =
                LocalEndpoint.builder()
                        .port(0)
                        .streamFeatures(
                                StreamFeatures.none()
                                        .withStreams(
                                                StreamsOptions.builder()
                                                        .shardsPerTable(2)
                                                        .shuffleTransactions(shuffleTransactions)
                                                        .seed(42)
                                                        .build())
                                        .withKinesisDestination(kinesisDestination))
                        .build()
                        .start();
        this.streams = endpoint.streamFeatures().streams();
        this.ddb = JobOptions.dynamoDbClient(config()).buildSyncClient();
        if (commandTables) {
            // the command service's own provisioning: Orders, Execution, Idempotency, Ledger,
            // Context
            TableProvisioner.createAll(ddb, prefix);
        } else {
            create(naming.physicalName(Tables.CONTEXT), Tables.CONTEXT);
            create(naming.physicalName(Tables.LEDGER), Tables.LEDGER);
        }
        for (TableSpec spec : List.of(Tables.INBOX, Tables.PROJECTION)) {
            create(naming.physicalName(spec), spec);
        }
        create(portfolioTable(), Tables.PORTFOLIO);
    }

    public String table(TableSpec spec) {
        return naming.physicalName(spec);
    }

    public String portfolioTable() {
        return naming.physicalName(Tables.PORTFOLIO, 1);
    }

    /** Job options pointing at this endpoint with dummy BASIC credentials. */
    public Configuration config() {
        return config(endpoint, prefix);
    }

    /**
     * Job options for any test endpoint: dummy BASIC credentials, {@code prefix}'s tables, streams
     * from TRIM_HORIZON with fast shard discovery.
     */
    public static Configuration config(LocalEndpoint endpoint, String prefix) {
        Configuration c = new Configuration();
        c.set(JobOptions.DYNAMODB_ENDPOINT, endpoint.endpoint().toString());
        c.set(JobOptions.REGION, "us-east-1");
        c.set(JobOptions.CREDENTIALS, JobOptions.CredentialsKind.BASIC);
        c.set(JobOptions.ACCESS_KEY_ID, "local");
        c.set(JobOptions.SECRET_ACCESS_KEY, "local");
        c.set(JobOptions.TABLE_PREFIX, prefix);
        c.set(JobOptions.SHARD_DISCOVERY_INTERVAL, java.time.Duration.ofMillis(500));
        c.set(JobOptions.STARTING_POSITION, JobOptions.StartingPosition.TRIM_HORIZON);
        return c;
    }

    /** Options of a job reading {@code spec}'s stream. */
    public Configuration configReading(TableSpec spec) {
        Configuration c = config();
        c.set(JobOptions.STREAM_ARN, streamArn(spec));
        c.set(JobOptions.SOURCE_TABLE, table(spec));
        return c;
    }

    String streamArn(TableSpec spec) {
        return ddb.describeTable(b -> b.tableName(table(spec))).table().latestStreamArn();
    }

    /** The production provisioning (command's TableProvisioner): keys, GSIs, stream view. */
    private void create(String name, TableSpec spec) {
        TableProvisioner.create(ddb, spec, name);
    }

    public List<Map<String, AttributeValue>> scan(String table) {
        return scan(ddb, table);
    }

    /** Every item of {@code table}, consistent, all pages. */
    public static List<Map<String, AttributeValue>> scan(DynamoDbClient ddb, String table) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder r = ScanRequest.builder().tableName(table).consistentRead(true);
            if (start != null) {
                r.exclusiveStartKey(start);
            }
            ScanResponse resp = ddb.scan(r.build());
            out.addAll(resp.items());
            start =
                    resp.hasLastEvaluatedKey() && !resp.lastEvaluatedKey().isEmpty()
                            ? resp.lastEvaluatedKey()
                            : null;
        } while (start != null);
        return out;
    }

    /** Model attribute value → SDK attribute value. */
    static AttributeValue sdk(io.streamledger.model.change.AttributeValue v) {
        if (v instanceof io.streamledger.model.change.AttributeValue.S s) {
            return AttributeValue.fromS(s.value());
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.N n) {
            return AttributeValue.fromN(n.text());
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.Bool b) {
            return AttributeValue.fromBool(b.value());
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.M m) {
            return AttributeValue.fromM(sdk(m.values()));
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.Null) {
            return AttributeValue.fromNul(true);
        }
        throw new IllegalArgumentException("unsupported in tests: " + v);
    }

    static Map<String, AttributeValue> sdk(
            Map<String, io.streamledger.model.change.AttributeValue> item) {
        Map<String, AttributeValue> out = new HashMap<>();
        item.forEach((k, v) -> out.put(k, sdk(v)));
        return out;
    }

    @Override
    public void close() {
        ddb.close();
        endpoint.close();
    }
}
