package io.streamledger.jobs.it;

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
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

/**
 * The local endpoint with DynamoDB Streams and the tables of the posting and projection jobs, a
 * unique table prefix per test (STYLE habit 11), plus small SDK helpers for the ITCases.
 */
final class LocalStack implements AutoCloseable {

    final LocalEndpoint endpoint;
    final LocalDynamoDbStreams streams;
    final DynamoDbClient ddb;
    final String prefix;
    final TableNaming naming;

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

    /** With a Kinesis destination ("Kinesis Data Streams for DynamoDB") when options are given. */
    LocalStack(
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
            io.streamledger.command.config.TableProvisioner.createAll(ddb, prefix);
        } else {
            create(naming.physicalName(Tables.CONTEXT), Tables.CONTEXT);
            create(naming.physicalName(Tables.LEDGER), Tables.LEDGER);
        }
        for (TableSpec spec : List.of(Tables.INBOX, Tables.PROJECTION)) {
            create(naming.physicalName(spec), spec);
        }
        create(portfolioTable(), Tables.PORTFOLIO);
    }

    String table(TableSpec spec) {
        return naming.physicalName(spec);
    }

    String portfolioTable() {
        return naming.physicalName(Tables.PORTFOLIO, 1);
    }

    /** Job options pointing at this endpoint with dummy BASIC credentials. */
    Configuration config() {
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
    Configuration configReading(TableSpec spec) {
        Configuration c = config();
        c.set(JobOptions.STREAM_ARN, streamArn(spec));
        c.set(JobOptions.SOURCE_TABLE, table(spec));
        return c;
    }

    String streamArn(TableSpec spec) {
        return ddb.describeTable(b -> b.tableName(table(spec))).table().latestStreamArn();
    }

    private void create(String name, TableSpec spec) {
        CreateTableRequest.Builder b =
                CreateTableRequest.builder()
                        .tableName(name)
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(
                                AttributeDefinition.builder()
                                        .attributeName("PK")
                                        .attributeType(ScalarAttributeType.S)
                                        .build(),
                                AttributeDefinition.builder()
                                        .attributeName("SK")
                                        .attributeType(ScalarAttributeType.S)
                                        .build())
                        .keySchema(
                                KeySchemaElement.builder()
                                        .attributeName("PK")
                                        .keyType(KeyType.HASH)
                                        .build(),
                                KeySchemaElement.builder()
                                        .attributeName("SK")
                                        .keyType(KeyType.RANGE)
                                        .build());
        if (spec.streamViewType() != null) {
            b.streamSpecification(
                    StreamSpecification.builder()
                            .streamEnabled(true)
                            .streamViewType(spec.streamViewType().name())
                            .build());
        }
        ddb.createTable(b.build());
    }

    List<Map<String, AttributeValue>> scan(String table) {
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
