package io.streamledger.local.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.LocalDynamoDbExtension;
import java.math.BigDecimal;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.extensions.VersionedRecordExtension;
import software.amazon.awssdk.enhanced.dynamodb.mapper.StaticAttributeTags;
import software.amazon.awssdk.enhanced.dynamodb.mapper.StaticTableSchema;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * The SDK's enhanced client (generated #AMZN_MAPPED_ placeholders, optimistic versioning) works
 * unchanged against the endpoint (AP13-style versioned writes).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class EnhancedClientITCase {

    /** A mutable record for the static schema. */
    public static final class Position {
        private String pk;
        private String sk;
        private BigDecimal qty;
        private Long version;

        public String getPk() {
            return pk;
        }

        public void setPk(String pk) {
            this.pk = pk;
        }

        public String getSk() {
            return sk;
        }

        public void setSk(String sk) {
            this.sk = sk;
        }

        public BigDecimal getQty() {
            return qty;
        }

        public void setQty(BigDecimal qty) {
            this.qty = qty;
        }

        public Long getVersion() {
            return version;
        }

        public void setVersion(Long version) {
            this.version = version;
        }
    }

    private static final TableSchema<Position> SCHEMA =
            StaticTableSchema.builder(Position.class)
                    .newItemSupplier(Position::new)
                    .addAttribute(
                            String.class,
                            a ->
                                    a.name("PK")
                                            .getter(Position::getPk)
                                            .setter(Position::setPk)
                                            .tags(StaticAttributeTags.primaryPartitionKey()))
                    .addAttribute(
                            String.class,
                            a ->
                                    a.name("SK")
                                            .getter(Position::getSk)
                                            .setter(Position::setSk)
                                            .tags(StaticAttributeTags.primarySortKey()))
                    .addAttribute(
                            BigDecimal.class,
                            a -> a.name("qty").getter(Position::getQty).setter(Position::setQty))
                    .addAttribute(
                            Long.class,
                            a ->
                                    a.name("version")
                                            .getter(Position::getVersion)
                                            .setter(Position::setVersion)
                                            .tags(
                                                    VersionedRecordExtension.AttributeTags
                                                            .versionAttribute()))
                    .build();

    @Test
    void enhancedClientPutGetQueryAndVersionConflicts(URI endpoint) {
        try (DynamoDbClient ddb = Clients.dynamo(endpoint)) {
            String name = Tables.pkSk(ddb, "Portfolio");
            DynamoDbEnhancedClient enhanced =
                    DynamoDbEnhancedClient.builder()
                            .dynamoDbClient(ddb)
                            .extensions(VersionedRecordExtension.builder().build())
                            .build();
            DynamoDbTable<Position> table = enhanced.table(name, SCHEMA);
            Position p = new Position();
            p.setPk("ACCT#1");
            p.setSk("POS#ACME");
            p.setQty(new BigDecimal("10.50"));
            table.putItem(p);
            Position stored =
                    table.getItem(
                            Key.builder().partitionValue("ACCT#1").sortValue("POS#ACME").build());
            assertThat(stored.getQty()).isEqualByComparingTo("10.5");
            assertThat(stored.getVersion()).isEqualTo(1L);

            stored.setQty(new BigDecimal("12"));
            Position updated = table.updateItem(stored);
            assertThat(updated.getVersion()).isEqualTo(2L);

            // a stale copy (version 1) must lose
            Position stale = new Position();
            stale.setPk("ACCT#1");
            stale.setSk("POS#ACME");
            stale.setQty(new BigDecimal("99"));
            stale.setVersion(1L);
            assertThatThrownBy(() -> table.putItem(stale))
                    .isInstanceOf(ConditionalCheckFailedException.class);

            List<Position> page =
                    table
                            .query(
                                    QueryConditional.sortBeginsWith(
                                            Key.builder()
                                                    .partitionValue("ACCT#1")
                                                    .sortValue("POS#")
                                                    .build()))
                            .items()
                            .stream()
                            .toList();
            assertThat(page).hasSize(1);
            assertThat(page.get(0).getQty()).isEqualByComparingTo("12");
        }
    }
}
