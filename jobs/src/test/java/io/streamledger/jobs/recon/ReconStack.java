package io.streamledger.jobs.recon;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.streams.StreamFeatures;
import io.streamledger.local.streams.StreamsOptions;
import io.streamledger.model.table.GsiSpec;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

/**
 * The local endpoint with DynamoDB Streams and the Ledger, Reconciliation (with its IDX15 GSI),
 * Execution and Portfolio tables under a unique prefix, for the ledger-check and reconciliation
 * ITCases (STYLE habit 11).
 */
public final class ReconStack implements AutoCloseable {

    public final LocalEndpoint endpoint;
    public final DynamoDbClient ddb;
    public final String prefix;
    public final TableNaming naming;

    public ReconStack(String prefix) {
        this.prefix = prefix;
        this.naming = new TableNaming(prefix);
        this.endpoint =
                LocalEndpoint.builder()
                        .port(0)
                        .streamFeatures(
                                StreamFeatures.defaults()
                                        .withStreams(
                                                StreamsOptions.builder().shardsPerTable(2).build()))
                        .build()
                        .start();
        this.ddb = JobOptions.dynamoDbClient(config()).buildSyncClient();
        for (TableSpec spec : List.of(Tables.LEDGER, Tables.RECONCILIATION, Tables.EXECUTION)) {
            create(naming.physicalName(spec), spec);
        }
        create(naming.physicalName(Tables.PORTFOLIO, 1), Tables.PORTFOLIO);
    }

    public String table(TableSpec spec) {
        return naming.physicalName(spec);
    }

    public Configuration config() {
        Configuration c = new Configuration();
        c.set(JobOptions.DYNAMODB_ENDPOINT, endpoint.endpoint().toString());
        c.set(JobOptions.REGION, "us-east-1");
        c.set(JobOptions.CREDENTIALS, JobOptions.CredentialsKind.BASIC);
        c.set(JobOptions.ACCESS_KEY_ID, "local");
        c.set(JobOptions.SECRET_ACCESS_KEY, "local");
        c.set(JobOptions.TABLE_PREFIX, prefix);
        c.set(JobOptions.SHARD_DISCOVERY_INTERVAL, Duration.ofMillis(500));
        c.set(JobOptions.STARTING_POSITION, JobOptions.StartingPosition.TRIM_HORIZON);
        c.set(JobOptions.SINK_MAX_TIME_IN_BUFFER, Duration.ofMillis(200));
        return c;
    }

    public Configuration configReading(TableSpec spec) {
        Configuration c = config();
        c.set(
                JobOptions.STREAM_ARN,
                ddb.describeTable(b -> b.tableName(table(spec))).table().latestStreamArn());
        c.set(JobOptions.SOURCE_TABLE, table(spec));
        return c;
    }

    private void create(String name, TableSpec spec) {
        Set<String> keyAttrs = new LinkedHashSet<>(List.of("PK", "SK"));
        List<GlobalSecondaryIndex> gsis = new ArrayList<>();
        for (GsiSpec g : spec.gsis()) {
            keyAttrs.add(g.pkAttr());
            keyAttrs.add(g.skAttr());
            gsis.add(
                    GlobalSecondaryIndex.builder()
                            .indexName(g.indexName())
                            .keySchema(
                                    KeySchemaElement.builder()
                                            .attributeName(g.pkAttr())
                                            .keyType(KeyType.HASH)
                                            .build(),
                                    KeySchemaElement.builder()
                                            .attributeName(g.skAttr())
                                            .keyType(KeyType.RANGE)
                                            .build())
                            .projection(
                                    Projection.builder()
                                            .projectionType(ProjectionType.KEYS_ONLY)
                                            .build())
                            .build());
        }
        CreateTableRequest.Builder b =
                CreateTableRequest.builder()
                        .tableName(name)
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(
                                keyAttrs.stream()
                                        .map(
                                                a ->
                                                        AttributeDefinition.builder()
                                                                .attributeName(a)
                                                                .attributeType(
                                                                        ScalarAttributeType.S)
                                                                .build())
                                        .toList())
                        .keySchema(
                                KeySchemaElement.builder()
                                        .attributeName("PK")
                                        .keyType(KeyType.HASH)
                                        .build(),
                                KeySchemaElement.builder()
                                        .attributeName("SK")
                                        .keyType(KeyType.RANGE)
                                        .build());
        if (!gsis.isEmpty()) {
            b.globalSecondaryIndexes(gsis);
        }
        if (spec.streamViewType() != null) {
            b.streamSpecification(
                    StreamSpecification.builder()
                            .streamEnabled(true)
                            .streamViewType(spec.streamViewType().name())
                            .build());
        }
        ddb.createTable(b.build());
    }

    public List<Map<String, AttributeValue>> scan(String table) {
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

    /** Break rows (IDX14) of the Reconciliation table. */
    public List<Map<String, AttributeValue>> breaks() {
        return scan(table(Tables.RECONCILIATION)).stream()
                .filter(i -> i.get("SK").s().startsWith("BREAK#"))
                .toList();
    }

    @Override
    public void close() {
        ddb.close();
        endpoint.close();
    }
}
