package io.streamledger.savepoints.testing;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.streams.StreamFeatures;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

/**
 * The project's local endpoint (Streams + exports) on a random loopback port with a unique table
 * prefix per test, and the job options that point at it.
 */
public final class LocalDdb implements AutoCloseable {

    public final LocalEndpoint endpoint;
    public final DynamoDbClient ddb;
    public final TableNaming naming;

    public LocalDdb(Path exportRoot) {
        this.endpoint =
                LocalEndpoint.builder()
                        .host("127.0.0.1")
                        .port(0)
                        .streamFeatures(StreamFeatures.defaults().withExportRoot(exportRoot))
                        .build()
                        .start();
        this.naming = new TableNaming("t" + UUID.randomUUID().toString().substring(0, 8) + "-");
        this.ddb = clientConfig().buildSyncClient();
    }

    public DynamoDbClientConfig clientConfig() {
        return JobOptions.dynamoDbClient(config());
    }

    /** Job options pointing at this endpoint with dummy BASIC credentials. */
    public Configuration config() {
        Configuration c = new Configuration();
        c.set(JobOptions.DYNAMODB_ENDPOINT, endpoint.endpoint().toString());
        c.set(JobOptions.REGION, "us-east-1");
        c.set(JobOptions.CREDENTIALS, JobOptions.CredentialsKind.BASIC);
        c.set(JobOptions.ACCESS_KEY_ID, "local");
        c.set(JobOptions.SECRET_ACCESS_KEY, "local");
        c.set(JobOptions.TABLE_PREFIX, naming.prefix());
        return c;
    }

    public String create(TableSpec spec) {
        String name = naming.physicalName(spec);
        StreamSpecification stream =
                spec.streamViewType() == null
                        ? null
                        : StreamSpecification.builder()
                                .streamEnabled(true)
                                .streamViewType(spec.streamViewType().name())
                                .build();
        ddb.createTable(
                b -> {
                    NamespaceTables.pkSkOnDemand(b.tableName(name));
                    if (stream != null) {
                        b.streamSpecification(stream);
                    }
                });
        return name;
    }

    public List<Map<String, AttributeValue>> scan(String table) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse r =
                    ddb.scan(
                            b -> {
                                b.tableName(table).consistentRead(true);
                                if (from != null) {
                                    b.exclusiveStartKey(from);
                                }
                            });
            out.addAll(r.items());
            start =
                    r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                            ? r.lastEvaluatedKey()
                            : null;
        } while (start != null);
        return out;
    }

    @Override
    public void close() {
        ddb.close();
        endpoint.close();
    }
}
