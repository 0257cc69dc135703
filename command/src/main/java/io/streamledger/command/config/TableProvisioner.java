package io.streamledger.command.config;

import io.streamledger.aws.items.ProjectionAliasItems;
import io.streamledger.aws.tables.RecoverySettings;
import io.streamledger.model.keys.ProjectionAliasKey;
import io.streamledger.model.table.GsiProjection;
import io.streamledger.model.table.GsiSpec;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TablePolicy;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

/**
 * Creates the command service's tables exactly as the model's {@link TableSpec}s define them (keys,
 * GSIs with projections, streams, TTL), and the live Portfolio namespace with its alias item (CS09,
 * AP07): used by tests, by {@code --create-tables}, the run command and {@code provision-tables}.
 * An existing table gets what a newer spec added (a missing GSI, TTL), and with {@link Recovery#ON}
 * every authority table ({@code model} {@code TablePolicy}) gets point-in-time recovery and
 * deletion protection.
 */
public final class TableProvisioner {

    /** Whether authority tables get point-in-time recovery and deletion protection. */
    public enum Recovery {
        /** On: the default of the command service outside the local stack. */
        ON,
        /** Off: the local stack and tests, whose tables are thrown away. */
        OFF;

        /** {@link #ON} when {@code on}. */
        public static Recovery of(boolean on) {
            return on ? ON : OFF;
        }
    }

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

    /** Creates every command table that does not exist yet, without recovery settings. */
    public static void createAll(DynamoDbClient client, String prefix) {
        createAll(client, prefix, Recovery.OFF);
    }

    /** Creates or completes every command table; {@code recovery} for the authority tables. */
    public static void createAll(DynamoDbClient client, String prefix, Recovery recovery) {
        TableNaming naming = new TableNaming(prefix);
        for (TableSpec spec : COMMAND_TABLES) {
            create(client, spec, naming.physicalName(spec), recovery);
        }
    }

    /** {@link #create(DynamoDbClient, TableSpec, String)}, then the recovery settings if due. */
    private static void create(
            DynamoDbClient client, TableSpec spec, String physicalName, Recovery recovery) {
        create(client, spec, physicalName);
        if (recovery == Recovery.ON && TablePolicy.of(spec.logicalName()).authority()) {
            // on AWS a new table is CREATING for a while: the updates need it ACTIVE
            client.waiter().waitUntilTableExists(b -> b.tableName(physicalName));
            RecoverySettings.enable(client, spec.logicalName(), physicalName);
        }
    }

    /**
     * Every table of the model (Portfolio at its initial namespace version) and the alias naming
     * that namespace live: what a whole deployment starts with.
     */
    public static void createModelTables(DynamoDbClient client, TableNaming naming) {
        createModelTables(client, naming, Recovery.OFF);
    }

    /**
     * As {@link #createModelTables(DynamoDbClient, TableNaming)}, authority tables {@code
     * recovery}.
     */
    public static void createModelTables(
            DynamoDbClient client, TableNaming naming, Recovery recovery) {
        for (TableSpec spec : Tables.all()) {
            if (spec != Tables.PORTFOLIO && spec != Tables.PROJECTION) {
                create(client, spec, naming.physicalName(spec), recovery);
            }
        }
        provisionLiveNamespace(client, naming);
    }

    /**
     * The Projection table, {@code Portfolio_v1} and the alias {@code ALIAS#portfolio → 1}, so the
     * backfill runbook sees v1 as live; an alias already present (e.g. moved by a cutover) is kept.
     *
     * @return true when this call wrote the alias
     */
    public static boolean provisionLiveNamespace(DynamoDbClient client, TableNaming naming) {
        String projection = naming.physicalName(Tables.PROJECTION);
        create(client, Tables.PROJECTION, projection);
        create(
                client,
                Tables.PORTFOLIO,
                naming.physicalName(Tables.PORTFOLIO, Tables.PORTFOLIO_INITIAL_VERSION));
        // on AWS a new table is CREATING for a while: the put needs it ACTIVE
        client.waiter().waitUntilTableExists(b -> b.tableName(projection));
        return ProjectionAliasItems.provisionIfAbsent(
                client,
                projection,
                ProjectionAliasKey.PORTFOLIO,
                Tables.PORTFOLIO_INITIAL_VERSION,
                Instant.now());
    }

    /**
     * Creates {@code physicalName} from {@code spec}; an existing table gets the GSIs and TTL of
     * the spec it lacks (a GSI added online, one per call as DynamoDB allows).
     */
    public static void create(DynamoDbClient client, TableSpec spec, String physicalName) {
        Set<String> keyAttrs = new LinkedHashSet<>();
        keyAttrs.add(spec.keySchema().partitionKey());
        keyAttrs.add(spec.keySchema().sortKey());
        List<GlobalSecondaryIndex> gsis = new ArrayList<>();
        for (GsiSpec g : spec.gsis()) {
            keyAttrs.add(g.pkAttr());
            keyAttrs.add(g.skAttr());
            gsis.add(gsi(g));
        }
        List<AttributeDefinition> defs = new ArrayList<>();
        for (String a : keyAttrs) {
            defs.add(stringAttribute(a));
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
            addMissingGsis(client, spec, physicalName);
        }
        if (spec.ttlAttribute() != null && !ttlEnabled(client, physicalName)) {
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

    /** Adds the first GSI of the spec the table lacks (DynamoDB creates one per UpdateTable). */
    private static void addMissingGsis(DynamoDbClient client, TableSpec spec, String table) {
        TableDescription t = client.describeTable(b -> b.tableName(table)).table();
        Set<String> present = new LinkedHashSet<>();
        if (t.hasGlobalSecondaryIndexes()) {
            t.globalSecondaryIndexes().forEach(g -> present.add(g.indexName()));
        }
        for (GsiSpec g : spec.gsis()) {
            if (!present.contains(g.indexName())) {
                client.updateTable(
                        b ->
                                b.tableName(table)
                                        .attributeDefinitions(
                                                stringAttribute(g.pkAttr()),
                                                stringAttribute(g.skAttr()))
                                        .globalSecondaryIndexUpdates(
                                                GlobalSecondaryIndexUpdate.builder()
                                                        .create(create(g))
                                                        .build()));
                return;
            }
        }
    }

    private static boolean ttlEnabled(DynamoDbClient client, String table) {
        TimeToLiveStatus s =
                client.describeTimeToLive(b -> b.tableName(table))
                        .timeToLiveDescription()
                        .timeToLiveStatus();
        return s == TimeToLiveStatus.ENABLED || s == TimeToLiveStatus.ENABLING;
    }

    private static GlobalSecondaryIndex gsi(GsiSpec g) {
        return GlobalSecondaryIndex.builder()
                .indexName(g.indexName())
                .keySchema(keySchema(g))
                .projection(projection(g))
                .build();
    }

    private static CreateGlobalSecondaryIndexAction create(GsiSpec g) {
        return CreateGlobalSecondaryIndexAction.builder()
                .indexName(g.indexName())
                .keySchema(keySchema(g))
                .projection(projection(g))
                .build();
    }

    private static List<KeySchemaElement> keySchema(GsiSpec g) {
        return List.of(
                KeySchemaElement.builder().attributeName(g.pkAttr()).keyType(KeyType.HASH).build(),
                KeySchemaElement.builder()
                        .attributeName(g.skAttr())
                        .keyType(KeyType.RANGE)
                        .build());
    }

    private static Projection projection(GsiSpec g) {
        Projection.Builder p = Projection.builder();
        if (g.projection() == GsiProjection.ALL) {
            p.projectionType(ProjectionType.ALL);
        } else if (g.projection() == GsiProjection.KEYS_ONLY) {
            p.projectionType(ProjectionType.KEYS_ONLY);
        } else {
            p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes(g.nonKeyAttributes());
        }
        return p.build();
    }

    private static AttributeDefinition stringAttribute(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }
}
