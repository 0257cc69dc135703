package io.streamledger.aws.update;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Generated expressions and placeholder maps of the conditional-update builder (seed CS06). */
class ConditionalUpdateTest {

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    @Test
    void rendersSetAddRemoveAndAConditionWithOneNamePerAttribute() {
        ConditionalUpdate u =
                ConditionalUpdate.builder()
                        .set("status", s("RESOLVED"))
                        .increment("version", n(1))
                        .add("count", n(2))
                        .remove("GSI1PK", "GSI1SK")
                        .when(Condition.exists("PK"))
                        .when(Condition.eq("status", s("OPEN")))
                        .when(Condition.eq("version", n(7)))
                        .build();
        assertThat(u.updateExpression())
                .isEqualTo("SET #n0 = :v0, #n1 = #n1 + :v1 ADD #n2 :v2 REMOVE #n3, #n4");
        assertThat(u.conditionExpression())
                .isEqualTo("attribute_exists(#n5) AND #n0 = :v3 AND #n1 = :v4");
        assertThat(u.names())
                .containsExactly(
                        Map.entry("#n0", "status"),
                        Map.entry("#n1", "version"),
                        Map.entry("#n2", "count"),
                        Map.entry("#n3", "GSI1PK"),
                        Map.entry("#n4", "GSI1SK"),
                        Map.entry("#n5", "PK"));
        assertThat(u.values())
                .containsExactly(
                        Map.entry(":v0", s("RESOLVED")),
                        Map.entry(":v1", n(1)),
                        Map.entry(":v2", n(2)),
                        Map.entry(":v3", s("OPEN")),
                        Map.entry(":v4", n(7)));
    }

    @Test
    void nestedJunctionsAreParenthesized() {
        ConditionalUpdate u =
                ConditionalUpdate.builder()
                        .set("state", s("IN_FLIGHT"))
                        .when(Condition.eq("state", s("READY")))
                        .when(
                                Condition.or(
                                        Condition.notExists("lease"), Condition.le("lease", n(5))))
                        .build();
        assertThat(u.conditionExpression())
                .isEqualTo("#n0 = :v1 AND (attribute_not_exists(#n1) OR #n1 <= :v2)");
        assertThat(
                        ConditionalUpdate.builder()
                                .remove("x")
                                .when(
                                        Condition.or(
                                                Condition.and(
                                                        Condition.gt("a", n(1)),
                                                        Condition.lt("a", n(9))),
                                                Condition.ne("b", s("z")),
                                                Condition.ge("c", n(0))))
                                .build()
                                .conditionExpression())
                .isEqualTo("(#n1 > :v0 AND #n1 < :v1) OR #n2 <> :v2 OR #n3 >= :v3");
    }

    @Test
    void attributeNamesThatLookLikePlaceholdersOrKeywordsNeverCollide() {
        ConditionalUpdate u =
                ConditionalUpdate.builder()
                        .set("#n1", s("a"))
                        .set(":v0", s("b"))
                        .set("size", s("c"))
                        .build();
        assertThat(u.updateExpression()).isEqualTo("SET #n0 = :v0, #n1 = :v1, #n2 = :v2");
        assertThat(u.names()).containsEntry("#n0", "#n1").containsEntry("#n1", ":v0");
        assertThat(u.conditionExpression()).isNull();
    }

    @Test
    void appliesToUpdateItemAndTransactionUpdates() {
        ConditionalUpdate u =
                ConditionalUpdate.builder().remove("lease").when(Condition.notExists("PK")).build();
        UpdateItemRequest r = u.applyTo(UpdateItemRequest.builder().tableName("t")).build();
        assertThat(r.updateExpression()).isEqualTo("REMOVE #n0");
        assertThat(r.conditionExpression()).isEqualTo("attribute_not_exists(#n1)");
        assertThat(r.hasExpressionAttributeValues())
                .as("DynamoDB rejects an empty values map")
                .isFalse();
        Update t = u.applyTo(Update.builder().tableName("t")).build();
        assertThat(t.expressionAttributeNames()).isEqualTo(u.names());
    }

    @Test
    void anUpdateNeedsAClauseAndNamesMustNotBeEmpty() {
        assertThatThrownBy(() -> ConditionalUpdate.builder().build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ConditionalUpdate.builder().remove("").build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Condition.and()).isInstanceOf(IllegalArgumentException.class);
    }
}
