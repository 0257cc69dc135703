package io.streamledger.local.partiql;

import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.it.Clients;
import io.streamledger.local.it.Tables;
import io.streamledger.local.spi.CommitListener;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.streams.StreamsClients;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * JUnit extension: one local endpoint per test class with a recorder of committed changes, and the
 * "twin tables" the PartiQL ITCases compare: the same writes done once in PartiQL and once with the
 * item operations must leave the same items, report the same ConsumedCapacity and produce the same
 * change records (the seam DynamoDB Streams and the Kinesis destination both consume) and the same
 * DynamoDB Streams records (CS07).
 */
final class PartiQlFixture implements BeforeAllCallback, AfterAllCallback {
    /** GSI of the twin tables: partition key {@code status}, sort key {@code SK}, ALL projected. */
    static final String BY_STATUS = "byStatus";

    private final LocalDynamoDbExtension extension;
    private final List<ItemChange> changes = new CopyOnWriteArrayList<>();
    private DynamoDbClient ddb;
    private DynamoDbStreamsClient streams;

    PartiQlFixture() {
        this(UnaryOperator.identity());
    }

    PartiQlFixture(UnaryOperator<LocalEndpoint.Builder> customizer) {
        CommitListener recorder = changes::addAll;
        this.extension =
                new LocalDynamoDbExtension(b -> customizer.apply(b.commitListener(recorder)));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        extension.beforeAll(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (ddb != null) {
            ddb.close();
            ddb = null;
        }
        if (streams != null) {
            streams.close();
            streams = null;
        }
        extension.afterAll(context);
    }

    LocalEndpoint endpoint() {
        return extension.endpoint();
    }

    /** ExecuteStatement with ConsumedCapacity INDEXES. */
    ExecuteStatementResponse execute(String statement, AttributeValue... params) {
        return ddb().executeStatement(
                        b -> {
                            b.statement(statement)
                                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES);
                            if (params.length > 0) {
                                b.parameters(params);
                            }
                        });
    }

    DynamoDbClient ddb() {
        if (ddb == null) {
            ddb = Clients.dynamo(extension.endpoint().endpoint());
        }
        return ddb;
    }

    DynamoDbStreamsClient streams() {
        if (streams == null) {
            streams = StreamsClients.streams(extension.endpoint().endpoint());
        }
        return streams;
    }

    /**
     * A PAY_PER_REQUEST table with string {@code PK}, {@code SK}, the {@link #BY_STATUS} GSI and a
     * NEW_AND_OLD_IMAGES stream.
     */
    String table(String prefix) {
        String name = Tables.unique(prefix);
        ddb().createTable(
                        b ->
                                b.tableName(name)
                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                        .attributeDefinitions(
                                                attr("PK", ScalarAttributeType.S),
                                                attr("SK", ScalarAttributeType.S),
                                                attr("status", ScalarAttributeType.S))
                                        .keySchema(
                                                key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                        .globalSecondaryIndexes(
                                                GlobalSecondaryIndex.builder()
                                                        .indexName(BY_STATUS)
                                                        .keySchema(
                                                                key("status", KeyType.HASH),
                                                                key("SK", KeyType.RANGE))
                                                        .projection(
                                                                p ->
                                                                        p.projectionType(
                                                                                ProjectionType.ALL))
                                                        .build())
                                        .streamSpecification(
                                                s ->
                                                        s.streamEnabled(true)
                                                                .streamViewType(
                                                                        StreamViewType
                                                                                .NEW_AND_OLD_IMAGES)));
        return name;
    }

    /** Changes committed to a table, in commit order. */
    List<ItemChange> changes(String table) {
        List<ItemChange> out = new ArrayList<>();
        for (ItemChange c : changes) {
            if (c.table().equals(table)) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Asserts two tables received the same change records: event, keys, images, size, and whether
     * each came from a transaction — everything a Streams or Kinesis record is built from.
     */
    void assertSameChanges(String partiql, String items) {
        assertThat(shape(changes(partiql))).isEqualTo(shape(changes(items))).isNotEmpty();
    }

    private static List<String> shape(List<ItemChange> changes) {
        List<String> out = new ArrayList<>();
        for (ItemChange c : changes) {
            out.add(
                    c.eventName()
                            + " "
                            + c.keys()
                            + " old="
                            + c.oldImage()
                            + " new="
                            + c.newImage()
                            + " size="
                            + c.sizeBytes()
                            + " tx="
                            + (c.transactionId() != null)
                            + " service="
                            + c.serviceDelete());
        }
        return out;
    }

    /** Asserts the DynamoDB Streams records of two tables are the same, item by item, in order. */
    void assertSameStreamRecords(String partiql, String items) {
        Map<String, List<String>> a = streamRecords(partiql);
        Map<String, List<String>> b = streamRecords(items);
        assertThat(a).isEqualTo(b).isNotEmpty();
    }

    private Map<String, List<String>> streamRecords(String table) {
        String arn = ddb().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        Map<String, List<String>> byKey = new TreeMap<>();
        for (Record r : StreamsClients.readAll(streams(), arn)) {
            var d = r.dynamodb();
            byKey.computeIfAbsent(d.keys().toString(), k -> new ArrayList<>())
                    .add(
                            r.eventName()
                                    + " old="
                                    + sorted(d.oldImage())
                                    + " new="
                                    + sorted(d.newImage())
                                    + " size="
                                    + d.sizeBytes()
                                    + " view="
                                    + d.streamViewType());
        }
        return byKey;
    }

    private static Map<String, AttributeValue> sorted(Map<String, AttributeValue> m) {
        return m == null ? null : new TreeMap<>(m);
    }

    static Map<String, AttributeValue> item(String pk, String sk, Object... attrs) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put("PK", AttributeValue.fromS(pk));
        m.put("SK", AttributeValue.fromS(sk));
        for (int i = 0; i < attrs.length; i += 2) {
            Object v = attrs[i + 1];
            m.put(
                    (String) attrs[i],
                    v instanceof AttributeValue av
                            ? av
                            : v instanceof Number
                                    ? AttributeValue.fromN(v.toString())
                                    : AttributeValue.fromS(v.toString()));
        }
        return m;
    }

    /** Capacity as comparable text (TOTAL or INDEXES detail), without the table's name. */
    static String capacity(ConsumedCapacity c) {
        return c == null ? "none" : c.toBuilder().tableName(null).build().toString();
    }

    /** Capacities of batch and transaction responses, without table names. */
    static List<String> capacities(List<ConsumedCapacity> list) {
        List<String> out = new ArrayList<>();
        list.forEach(c -> out.add(capacity(c)));
        return out;
    }
}
