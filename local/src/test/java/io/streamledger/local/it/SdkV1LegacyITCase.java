package io.streamledger.local.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration;
import com.amazonaws.services.dynamodbv2.AmazonDynamoDB;
import com.amazonaws.services.dynamodbv2.AmazonDynamoDBClientBuilder;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBAttribute;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBHashKey;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBMapper;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBMapperConfig;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBQueryExpression;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBRangeKey;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBScanExpression;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBTable;
import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBVersionAttribute;
import com.amazonaws.services.dynamodbv2.model.AttributeValue;
import com.amazonaws.services.dynamodbv2.model.ComparisonOperator;
import com.amazonaws.services.dynamodbv2.model.Condition;
import com.amazonaws.services.dynamodbv2.model.ConditionalCheckFailedException;
import com.amazonaws.services.dynamodbv2.model.QueryRequest;
import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The AWS SDK v1 client and DynamoDBMapper, which send the legacy parameters (KeyConditions,
 * Expected, AttributeUpdates, ScanFilter), against the endpoint: optimistic locking by version
 * attribute as older services do it (AP13 versioned writes).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class SdkV1LegacyITCase {
    private static AmazonDynamoDB v1;
    private static String table;
    private static DynamoDBMapper mapper;

    /** A mapped order row with a version attribute (the mapper's optimistic lock). */
    @DynamoDBTable(tableName = "overridden")
    public static class OrderRow {
        private String pk;
        private String sk;
        private String status;
        private Long qty;
        private Long version;

        @DynamoDBHashKey(attributeName = "PK")
        public String getPk() {
            return pk;
        }

        public void setPk(String pk) {
            this.pk = pk;
        }

        @DynamoDBRangeKey(attributeName = "SK")
        public String getSk() {
            return sk;
        }

        public void setSk(String sk) {
            this.sk = sk;
        }

        @DynamoDBAttribute(attributeName = "status")
        public String getStatus() {
            return status;
        }

        public void setStatus(String status) {
            this.status = status;
        }

        @DynamoDBAttribute(attributeName = "qty")
        public Long getQty() {
            return qty;
        }

        public void setQty(Long qty) {
            this.qty = qty;
        }

        @DynamoDBVersionAttribute(attributeName = "ver")
        public Long getVersion() {
            return version;
        }

        public void setVersion(Long version) {
            this.version = version;
        }
    }

    @BeforeAll
    static void setUp(URI endpoint) {
        try (DynamoDbClient v2 = Clients.dynamo(endpoint)) {
            table = Tables.pkSk(v2, "V1");
        }
        v1 =
                AmazonDynamoDBClientBuilder.standard()
                        .withEndpointConfiguration(
                                new EndpointConfiguration(endpoint.toString(), "us-east-1"))
                        .withCredentials(
                                new AWSStaticCredentialsProvider(
                                        new BasicAWSCredentials("AKIDLOCAL", "secret")))
                        .build();
        mapper =
                new DynamoDBMapper(
                        v1,
                        DynamoDBMapperConfig.builder()
                                .withTableNameOverride(
                                        DynamoDBMapperConfig.TableNameOverride
                                                .withTableNameReplacement(table))
                                .withConsistentReads(
                                        DynamoDBMapperConfig.ConsistentReads.CONSISTENT)
                                .build());
    }

    @AfterAll
    static void close() {
        v1.shutdown();
    }

    private static OrderRow row(String pk, String sk, String status, long qty) {
        OrderRow r = new OrderRow();
        r.setPk(pk);
        r.setSk(sk);
        r.setStatus(status);
        r.setQty(qty);
        return r;
    }

    @Test
    void mapperSaveLoadWithOptimisticLocking() {
        OrderRow r = row("acct-1", "order-1", "NEW", 10);
        mapper.save(r); // UpdateItem with AttributeUpdates + Expected {ver: Exists=false}
        assertThat(r.getVersion()).isEqualTo(1L);
        OrderRow loaded = mapper.load(OrderRow.class, "acct-1", "order-1");
        assertThat(loaded.getStatus()).isEqualTo("NEW");
        assertThat(loaded.getVersion()).isEqualTo(1L);

        loaded.setStatus("FILLED");
        mapper.save(loaded); // Expected {ver: Value=1}
        assertThat(mapper.load(OrderRow.class, "acct-1", "order-1").getVersion()).isEqualTo(2L);

        // the first copy is stale: its Expected version no longer holds
        r.setStatus("CANCELLED");
        assertThatThrownBy(() -> mapper.save(r))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(mapper.load(OrderRow.class, "acct-1", "order-1").getStatus())
                .isEqualTo("FILLED");

        mapper.delete(mapper.load(OrderRow.class, "acct-1", "order-1")); // Expected on version
        assertThat(mapper.load(OrderRow.class, "acct-1", "order-1")).isNull();
    }

    @Test
    void mapperQueryAndScanSendKeyConditionsAndFilters() {
        for (int i = 1; i <= 5; i++) {
            mapper.save(row("acct-q", "order-" + i, i % 2 == 0 ? "FILLED" : "NEW", i));
        }
        OrderRow hash = new OrderRow();
        hash.setPk("acct-q");
        List<OrderRow> range =
                mapper.query(
                        OrderRow.class,
                        new DynamoDBQueryExpression<OrderRow>()
                                .withHashKeyValues(hash)
                                .withRangeKeyCondition(
                                        "SK",
                                        new Condition()
                                                .withComparisonOperator(ComparisonOperator.BETWEEN)
                                                .withAttributeValueList(
                                                        new AttributeValue("order-2"),
                                                        new AttributeValue("order-4")))
                                .withQueryFilterEntry(
                                        "status",
                                        new Condition()
                                                .withComparisonOperator(ComparisonOperator.EQ)
                                                .withAttributeValueList(
                                                        new AttributeValue("FILLED"))));
        assertThat(range).extracting(OrderRow::getSk).containsExactly("order-2", "order-4");
        assertThat(
                        mapper.count(
                                OrderRow.class,
                                new DynamoDBScanExpression()
                                        .withFilterConditionEntry(
                                                "qty",
                                                new Condition()
                                                        .withComparisonOperator(
                                                                ComparisonOperator.GE)
                                                        .withAttributeValueList(
                                                                new AttributeValue().withN("4")))))
                .isEqualTo(2);
    }

    @Test
    void lowLevelV1ClientQueryWithKeyConditionsAndAttributesToGet() {
        mapper.save(row("acct-l", "a", "NEW", 1));
        mapper.save(row("acct-l", "b", "NEW", 2));
        var result =
                v1.query(
                        new QueryRequest(table)
                                .withKeyConditions(
                                        Map.of(
                                                "PK",
                                                new Condition()
                                                        .withComparisonOperator(
                                                                ComparisonOperator.EQ)
                                                        .withAttributeValueList(
                                                                new AttributeValue("acct-l")),
                                                "SK",
                                                new Condition()
                                                        .withComparisonOperator(
                                                                ComparisonOperator.GT)
                                                        .withAttributeValueList(
                                                                new AttributeValue("a"))))
                                .withAttributesToGet("SK", "qty"));
        assertThat(result.getItems())
                .containsExactly(
                        Map.of(
                                "SK",
                                new AttributeValue("b"),
                                "qty",
                                new AttributeValue().withN("2")));
    }
}
