package io.streamledger.command.config;

import io.streamledger.model.table.GsiProjection;
import io.streamledger.model.table.GsiSpec;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

/**
 * Creates the command service's tables exactly as the model's {@link TableSpec}s define them (keys,
 * GSIs with projections, streams, TTL): used by tests and by {@code --create-tables}.
 */
public final class TableProvisioner {

    /** The tables the command service writes. */
    public static final List<TableSpec> COMMAND_TABLES =
            List.of(
                    Tables.ORDERS,
                    Tables.EXECUTION,
                    Tables.IDEMPOTENCY,
                    Tables.LEDGER,
                    Tables.CONTEXT,
                    // breaks and batches the ops API reads, and its audit items
                    Tables.RECONCILIATION);

    private TableProvisioner() {}

    /** Creates every command table that does not exist yet. */
    public static void createAll(DynamoDbClient client, String prefix) {
        TableNaming naming = new TableNaming(prefix);
        for (TableSpec spec : COMMAND_TABLES) {
            create(client, spec, naming.physicalName(spec));
        }
    }

    public static void create(DynamoDbClient client, TableSpec spec, String physicalName) {
        Set<String> keyAttrs = new LinkedHashSet<>();
        keyAttrs.add(spec.keySchema().partitionKey());
        keyAttrs.add(spec.keySchema().sortKey());
        List<GlobalSecondaryIndex> gsis = new ArrayList<>();
        for (GsiSpec g : spec.gsis()) {
            keyAttrs.add(g.pkAttr());
            keyAttrs.add(g.skAttr());
            Projection.Builder p = Projection.builder();
            if (g.projection() == GsiProjection.ALL) {
                p.projectionType(ProjectionType.ALL);
            } else if (g.projection() == GsiProjection.KEYS_ONLY) {
                p.projectionType(ProjectionType.KEYS_ONLY);
            } else {
                p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes(g.nonKeyAttributes());
            }
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
                            .projection(p.build())
                            .build());
        }
        List<AttributeDefinition> defs = new ArrayList<>();
        for (String a : keyAttrs) {
            defs.add(
                    AttributeDefinition.builder()
                            .attributeName(a)
                            .attributeType(ScalarAttributeType.S)
                            .build());
        }
        CreateTableRequest.Builder req =
                CreateTableRequest.builder()
                        .tableName(physicalName)
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(defs)
                        .keySchema(
                                KeySchemaElement.builder()
                                        .attributeName(spec.keySchema().partitionKey())
                                        .keyType(KeyType.HASH)
                                        .build(),
                                KeySchemaElement.builder()
                                        .attributeName(spec.keySchema().sortKey())
                                        .keyType(KeyType.RANGE)
                                        .build());
        if (!gsis.isEmpty()) {
            req.globalSecondaryIndexes(gsis);
        }
        if (spec.hasStream()) {
            req.streamSpecification(
                    StreamSpecification.builder()
                            .streamEnabled(true)
                            .streamViewType(StreamViewType.fromValue(spec.streamViewType().name()))
                            .build());
        }
        try {
            client.createTable(req.build());
        } catch (ResourceInUseException exists) {
            return;
        }
        if (spec.ttlAttribute() != null) {
            client.updateTimeToLive(
                    UpdateTimeToLiveRequest.builder()
                            .tableName(physicalName)
                            .timeToLiveSpecification(
                                    TimeToLiveSpecification.builder()
                                            .enabled(true)
                                            .attributeName(spec.ttlAttribute())
                                            .build())
                            .build());
        }
    }
}
