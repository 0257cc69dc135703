package io.streamledger.sinks.versioned;

import static io.streamledger.sinks.versioned.Writes.position;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/** The guarded request each write becomes (seed CS06/AP13 version guard; create-once rows). */
class ItemRequestFactoryTest {

    @Test
    void versionGuardIsAnUpdateConditionedOnAbsenceOrAnOlderVersion() {
        var factory =
                new ItemRequestFactory(
                        WriteGuard.versionGuard("PK", "srcVer"), ReturnConsumedCapacity.INDEXES);

        var r = factory.updateItem(position("a", "AAPL", 7));

        assertThat(r.conditionExpression())
                .isEqualTo("(attribute_not_exists(#sl_pk) OR #sl_ver < :sl_v)");
        assertThat(r.updateExpression()).isEqualTo("SET #sl_ver = :sl_v, #sl_a0 = :sl_a0");
        assertThat(r.expressionAttributeNames())
                .containsEntry("#sl_pk", "PK")
                .containsEntry("#sl_ver", "srcVer")
                .containsEntry("#sl_a0", "quantity");
        assertThat(r.expressionAttributeValues())
                .containsEntry(":sl_v", AttributeValue.fromN("7"))
                .containsEntry(":sl_a0", AttributeValue.fromN("70"));
        assertThat(r.key()).isEqualTo(position("a", "AAPL", 7).key());
        assertThat(r.tableName()).isEqualTo(Writes.TABLE);
        assertThat(r.returnConsumedCapacity()).isEqualTo(ReturnConsumedCapacity.INDEXES);
    }

    @Test
    void anExtraConditionIsAndedWithTheGuard() {
        var factory =
                new ItemRequestFactory(WriteGuard.versionGuard(), ReturnConsumedCapacity.TOTAL);
        VersionedWrite w =
                VersionedWrite.of(
                        "T",
                        Map.of("PK", AttributeValue.fromS("p")),
                        Map.of(),
                        2,
                        ExtraCondition.of(
                                "#ns = :ns",
                                Map.of("#ns", "namespace"),
                                Map.of(":ns", AttributeValue.fromS("v3"))));

        var r = factory.updateItem(w);

        assertThat(r.conditionExpression())
                .isEqualTo("(attribute_not_exists(#sl_pk) OR #sl_ver < :sl_v) AND (#ns = :ns)");
        assertThat(r.expressionAttributeNames()).containsEntry("#ns", "namespace");
        assertThat(r.expressionAttributeValues()).containsEntry(":ns", AttributeValue.fromS("v3"));
    }

    @Test
    void createOnceIsAPutIfAbsentCarryingKeyAttributesAndVersion() {
        var factory = new ItemRequestFactory(WriteGuard.createOnce(), ReturnConsumedCapacity.TOTAL);

        var r = factory.putItem(position("a", "AAPL", 3));

        assertThat(r.conditionExpression()).isEqualTo("attribute_not_exists(#sl_pk)");
        assertThat(r.expressionAttributeNames()).containsExactlyEntriesOf(Map.of("#sl_pk", "PK"));
        assertThat(r.hasExpressionAttributeValues()).isFalse();
        assertThat(r.item())
                .containsEntry("PK", AttributeValue.fromS("TEN#t1#ACCT#a"))
                .containsEntry("SK", AttributeValue.fromS("POS#AAPL"))
                .containsEntry("quantity", AttributeValue.fromN("30"))
                .containsEntry("sourceVersion", AttributeValue.fromN("3"));
    }

    @Test
    void aKeyWithoutTheGuardsPartitionKeyIsRejected() {
        var factory =
                new ItemRequestFactory(WriteGuard.versionGuard(), ReturnConsumedCapacity.TOTAL);
        VersionedWrite w =
                VersionedWrite.of("T", Map.of("id", AttributeValue.fromS("x")), Map.of(), 1);

        assertThatThrownBy(() -> factory.updateItem(w))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lacks the guard's partition key 'PK'");
    }

    @Test
    void reservedPlaceholdersAndBadWritesAreRejectedAtConstruction() {
        assertThatThrownBy(
                        () ->
                                ExtraCondition.of(
                                        "#sl_x = :v",
                                        Map.of("#sl_x", "a"),
                                        Map.of(":v", AttributeValue.fromN("1"))))
                .hasMessageContaining("reserved prefix");
        assertThatThrownBy(
                        () ->
                                VersionedWrite.of(
                                        "T",
                                        Map.of("PK", AttributeValue.fromS("p")),
                                        Map.of("PK", AttributeValue.fromS("q")),
                                        1))
                .hasMessageContaining("keys are not updatable");
        assertThatThrownBy(
                        () ->
                                VersionedWrite.of(
                                        "T", Map.of("PK", AttributeValue.fromS("p")), Map.of(), -1))
                .hasMessageContaining("sourceVersion must be >= 0");
    }
}
