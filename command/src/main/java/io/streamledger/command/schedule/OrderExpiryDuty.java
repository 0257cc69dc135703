package io.streamledger.command.schedule;

import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.aws.items.Av;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.schedule.DutyMetrics.Skip;
import io.streamledger.model.keys.OrderExpiryKey;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * DAY/GTD expiry on the venue calendar (CS04/CS11): per tenant shard, an eventual Query of the
 * sparse ORDER-EXPIRY queue for orders whose close lies at least {@code grace} in the past (grace ≥
 * the stated clock skew, so no instance expires an order before its close on a clock within the
 * skew), each expired with the existing conditional expiry — idempotent, its hold released in the
 * same transaction. The queue is eventual; the expiry's strong read and conditions decide.
 */
public final class OrderExpiryDuty implements TimedDuty {

    public static final String NAME = "order-expiry";

    private static final Logger LOG = LoggerFactory.getLogger(OrderExpiryDuty.class);
    private static final String INDEX =
            Tables.ORDERS.gsis().stream()
                    .filter(g -> g.indexId().equals("ORDER-EXPIRY"))
                    .findFirst()
                    .orElseThrow()
                    .indexName();

    /** Keys per Query page and pages per shard and round (a limit on everything). */
    static final int PAGE = 100;

    static final int MAX_PAGES_PER_ROUND = 20;

    private final Ddb ddb;
    private final String table;
    private final Clock clock;
    private final Duration grace;
    private final OrderExpirer expirer;
    private final DutyMetrics metrics;

    public OrderExpiryDuty(
            Ddb ddb,
            String ordersTable,
            Clock clock,
            Duration grace,
            OrderExpirer expirer,
            DutyMetrics metrics) {
        this.ddb = ddb.ap("AP01");
        this.table = ordersTable;
        this.clock = clock;
        this.grace = grace;
        this.expirer = expirer;
        this.metrics = metrics;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int shards() {
        return OrderExpiryKey.SHARDS.shardCount();
    }

    @Override
    public void runShard(String tenant, int shard, BooleanSupplier stillHeld) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Instant bound = now.minus(grace);
        Map<String, AttributeValue> start = null;
        boolean first = true;
        int pages = 0;
        do {
            QueryResponse r = duePage(tenant, shard, bound, start);
            for (Map<String, AttributeValue> k : r.items()) {
                OrderExpiryKey due =
                        OrderExpiryKey.parse(k.get(Attr.EXPIRY_PK).s(), k.get(Attr.EXPIRY_SK).s());
                if (first) {
                    // entries come oldest first: how far behind the schedule this shard is
                    metrics.lag(Duration.between(due.dueAt().plus(grace), now).toMillis());
                    first = false;
                }
                metrics.due();
                if (!stillHeld.getAsBoolean()) {
                    return;
                }
                expire(tenant, due.orderId());
            }
            start =
                    r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                            ? r.lastEvaluatedKey()
                            : null;
        } while (start != null && ++pages < MAX_PAGES_PER_ROUND);
        if (first) {
            metrics.lag(0);
        }
    }

    private QueryResponse duePage(
            String tenant, int shard, Instant bound, @Nullable Map<String, AttributeValue> start) {
        return ddb.query(
                QueryRequest.builder()
                        .tableName(table)
                        .indexName(INDEX)
                        .keyConditionExpression("#pk = :pk AND #sk < :bound")
                        .expressionAttributeNames(
                                Map.of("#pk", Attr.EXPIRY_PK, "#sk", Attr.EXPIRY_SK))
                        .expressionAttributeValues(
                                Map.of(
                                        ":pk",
                                        Av.s(OrderExpiryKey.partition(tenant, shard)),
                                        ":bound",
                                        Av.s(OrderExpiryKey.dueBound(bound))))
                        .exclusiveStartKey(start)
                        .limit(PAGE),
                new CapacityMeter());
    }

    private void expire(String tenant, String orderId) {
        try {
            IdempotentExecutor.Outcome o = expirer.expire(tenant, orderId);
            if (o.response().status() != 200) {
                // a stored refusal of an earlier attempt: the order was closed meanwhile
                metrics.skipped(Skip.CLOSED);
            } else if (o.replayed()) {
                metrics.skipped(Skip.ALREADY_EXPIRED);
            } else {
                metrics.expired();
            }
        } catch (ApiException refused) {
            metrics.skipped(skipOf(refused));
        } catch (RuntimeException e) {
            metrics.skipped(Skip.BUSY);
            LOG.warn(
                    "expiry of {}/{} failed ({}); next round retries",
                    tenant,
                    orderId,
                    DynamoDbErrorClassifier.classify(e),
                    e);
        }
    }

    private static Skip skipOf(ApiException e) {
        if (e.status() == 404) {
            return Skip.MISSING;
        }
        return switch (e.code()) {
            case "ORDER_NOT_EXPIRED" -> Skip.NOT_DUE;
            case "ORDER_NOT_OPEN" -> Skip.CLOSED;
            default -> Skip.BUSY;
        };
    }
}
