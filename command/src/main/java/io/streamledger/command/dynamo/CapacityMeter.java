package io.streamledger.command.dynamo;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

/**
 * Sums the ConsumedCapacity (ReturnConsumedCapacity=INDEXES) of every DynamoDB call one request
 * makes, so each write response can state what it cost (AMP14 observability). Not thread-safe: one
 * meter per request.
 */
public final class CapacityMeter {

    private BigDecimal total = BigDecimal.ZERO;
    private final Map<String, BigDecimal> byTarget = new TreeMap<>();

    public void add(ConsumedCapacity cc) {
        if (cc == null) {
            return;
        }
        if (cc.capacityUnits() != null) {
            total = total.add(BigDecimal.valueOf(cc.capacityUnits()));
        }
        String table = cc.tableName();
        if (cc.table() != null) {
            merge(table, cc.table());
        }
        if (cc.globalSecondaryIndexes() != null) {
            cc.globalSecondaryIndexes().forEach((gsi, c) -> merge(table + "." + gsi, c));
        }
        if (cc.localSecondaryIndexes() != null) {
            cc.localSecondaryIndexes().forEach((lsi, c) -> merge(table + "." + lsi, c));
        }
    }

    public void addAll(Collection<ConsumedCapacity> list) {
        if (list != null) {
            list.forEach(this::add);
        }
    }

    private void merge(String key, Capacity c) {
        if (c.capacityUnits() != null) {
            byTarget.merge(key, BigDecimal.valueOf(c.capacityUnits()), BigDecimal::add);
        }
    }

    public BigDecimal total() {
        return total.stripTrailingZeros();
    }

    /** Units per table and per "table.index", in name order. */
    public Map<String, BigDecimal> byTarget() {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        byTarget.forEach((k, v) -> out.put(k, v.stripTrailingZeros()));
        return out;
    }

    /** Sum of the units charged to secondary indexes only. */
    public BigDecimal indexUnits() {
        return byTarget.entrySet().stream()
                .filter(e -> e.getKey().contains("."))
                .map(Map.Entry::getValue)
                .reduce(BigDecimal.ZERO, BigDecimal::add)
                .stripTrailingZeros();
    }

    /** Header form: {@code total=15;Orders=6;Orders.GSI1=1;...}. */
    public String headerValue() {
        StringBuilder sb = new StringBuilder("total=").append(total().toPlainString());
        byTarget()
                .forEach((k, v) -> sb.append(';').append(k).append('=').append(v.toPlainString()));
        return sb.toString();
    }
}
