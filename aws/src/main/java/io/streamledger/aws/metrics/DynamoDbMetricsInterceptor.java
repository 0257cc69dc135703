package io.streamledger.aws.metrics;

import io.streamledger.aws.error.CancellationCode;
import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.aws.error.ErrorClass;
import io.streamledger.aws.items.Av;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * SDK v2 interceptor that feeds {@link DynamoDbMetricsRecorder} from every DynamoDB call of a
 * client, tagged by the caller's {@link ApTag} (seed capacity model: units, throttles, conditional
 * failures, cancellations, latency, item size and key skew per AP): asks for INDEXES consumed
 * capacity where the caller left it unset (an explicit NONE is kept).
 */
public final class DynamoDbMetricsInterceptor implements ExecutionInterceptor {
    private static final ExecutionAttribute<Long> START =
            new ExecutionAttribute<>("streamledger.metrics.start");
    private static final Pattern EQUALITY =
            Pattern.compile("^\\(?\\s*([#\\w.]+)\\s*=\\s*(:\\w+)\\s*\\)?$");
    private static final Pattern AND = Pattern.compile("\\s+(?i:and)\\s+");
    private static final String RETURN_CONSUMED_CAPACITY = "ReturnConsumedCapacity";

    /** A request class's ReturnConsumedCapacity member (empty: none), found once per class. */
    private static final ConcurrentMap<Class<?>, Optional<SdkField<?>>> CONSUMED_CAPACITY_FIELD =
            new ConcurrentHashMap<>();

    /** The operation label of a request class ("PutItem" for PutItemRequest). */
    private static final ClassValue<String> OPERATION =
            new ClassValue<>() {
                @Override
                protected String computeValue(Class<?> type) {
                    return type.getSimpleName().replace("Request", "");
                }
            };

    private final DynamoDbMetricsRecorder recorder;

    public DynamoDbMetricsInterceptor(DynamoDbMetricsRecorder recorder) {
        this.recorder = recorder;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        attributes.putAttribute(START, System.nanoTime());
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        SdkRequest r = context.request();
        SdkField<?> f = consumedCapacityField(r);
        // every data-plane request has this member; the SDK's own field accessors set it
        if (f == null || f.getValueOrDefault(r) != null) {
            return r; // the caller decided, NONE included
        }
        SdkRequest.Builder b = r.toBuilder();
        f.set(b, ReturnConsumedCapacity.INDEXES.toString());
        return b.build();
    }

    private static @Nullable SdkField<?> consumedCapacityField(SdkRequest r) {
        Optional<SdkField<?>> known = CONSUMED_CAPACITY_FIELD.get(r.getClass());
        if (known == null) {
            known = Optional.empty();
            for (SdkField<?> f : r.sdkFields()) {
                if (RETURN_CONSUMED_CAPACITY.equals(f.memberName())) {
                    known = Optional.of(f);
                    break;
                }
            }
            CONSUMED_CAPACITY_FIELD.putIfAbsent(r.getClass(), known);
        }
        return known.orElse(null);
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        Call call = Call.of(context.request(), ap(attributes));
        if (call == null) {
            return;
        }
        Route primary = observed(call, attributes);
        call.writtenSizes.forEach(size -> recorder.itemSize(primary, size));
        SdkResponse response = context.response();
        for (ConsumedCapacity cc : consumedCapacity(response)) {
            consumed(call, cc);
        }
        for (Map<String, AttributeValue> item : readItems(response)) {
            recorder.itemSize(primary, Av.itemSize(item));
        }
    }

    @Override
    public void onExecutionFailure(
            Context.FailedExecution context, ExecutionAttributes attributes) {
        Call call = Call.of(context.request(), ap(attributes));
        if (call == null) {
            return;
        }
        Route primary = observed(call, attributes);
        Throwable error = DynamoDbErrorClassifier.unwrap(context.exception());
        String throttle = DynamoDbErrorClassifier.throttlingReason(error);
        if (error instanceof TransactionCanceledException tce) {
            List<CancellationReason> reasons =
                    tce.hasCancellationReasons() ? tce.cancellationReasons() : List.of();
            boolean conditional = false;
            for (CancellationReason reason : reasons) {
                CancellationCode code = CancellationCode.of(reason.code());
                if (code != CancellationCode.NONE) {
                    recorder.cancellation(
                            primary, code == CancellationCode.OTHER ? reason.code() : code.code());
                }
                conditional |= code == CancellationCode.CONDITIONAL_CHECK_FAILED;
            }
            if (reasons.isEmpty()) {
                recorder.cancellation(primary, "Unnamed");
            }
            if (conditional) {
                recorder.conditionalCheckFailed(primary);
            }
            if (throttle != null) {
                recorder.throttle(primary, throttle);
            }
            return;
        }
        if (throttle != null) {
            recorder.throttle(primary, throttle);
            return;
        }
        ErrorClass cls = DynamoDbErrorClassifier.classify(error);
        if (cls == ErrorClass.CONDITION_FAILED) {
            recorder.conditionalCheckFailed(primary);
        } else {
            recorder.error(primary, cls.name());
        }
    }

    /** Counts the call at its primary route, offers its key, and returns the route. */
    private Route observed(Call call, ExecutionAttributes attributes) {
        Route primary = recorder.route(call.ap, call.table, call.index);
        recorder.request(primary, call.operation, seconds(attributes));
        observeKey(call);
        return primary;
    }

    private void observeKey(Call call) {
        String key = null;
        if (call.keys instanceof QueryRequest q) {
            key =
                    partitionKey(
                            q, recorder.partitionKeyAttribute(call.table, call.index).orElse(null));
        } else if (!call.actions.isEmpty()) {
            // a transaction's key is its first action on the AP's own route, else its first
            Action chosen = call.actions.get(0);
            for (Action a : call.actions) {
                if (recorder.ownRoute(recorder.route(call.ap, a.table(), null))) {
                    chosen = a;
                    break;
                }
            }
            key =
                    partitionKey(
                            chosen.key(),
                            recorder.partitionKeyAttribute(chosen.table(), null).orElse(null));
        } else if (call.keys instanceof Map<?, ?> m) {
            @SuppressWarnings("unchecked")
            Map<String, AttributeValue> item = (Map<String, AttributeValue>) m;
            key =
                    partitionKey(
                            item,
                            recorder.partitionKeyAttribute(call.table, call.index).orElse(null));
        }
        if (key != null) {
            recorder.key(call.ap, key);
        }
    }

    /** One action of a transaction: its table and key (or item). */
    private record Action(String table, Map<String, AttributeValue> key) {}

    private void consumed(Call call, ConsumedCapacity cc) {
        if (cc.tableName() == null) {
            return;
        }
        boolean read = call.read;
        if (cc.table() == null && cc.globalSecondaryIndexes() == null) {
            double total = cc.capacityUnits() == null ? 0 : cc.capacityUnits();
            recorder.consumed(
                    recorder.route(call.ap, cc.tableName(), null),
                    read ? total : 0,
                    read ? 0 : total);
            return;
        }
        if (cc.table() != null) {
            charge(recorder.route(call.ap, cc.tableName(), null), cc.table(), read);
        }
        if (cc.globalSecondaryIndexes() != null) {
            cc.globalSecondaryIndexes()
                    .forEach(
                            (gsi, c) ->
                                    charge(recorder.route(call.ap, cc.tableName(), gsi), c, read));
        }
        if (cc.localSecondaryIndexes() != null) {
            cc.localSecondaryIndexes()
                    .forEach(
                            (lsi, c) ->
                                    charge(recorder.route(call.ap, cc.tableName(), lsi), c, read));
        }
    }

    private void charge(Route r, Capacity c, boolean readCall) {
        if (c.readCapacityUnits() != null || c.writeCapacityUnits() != null) {
            recorder.consumed(
                    r,
                    c.readCapacityUnits() == null ? 0 : c.readCapacityUnits(),
                    c.writeCapacityUnits() == null ? 0 : c.writeCapacityUnits());
        } else if (c.capacityUnits() != null) {
            // the service reported one figure: its kind is the call's
            recorder.consumed(
                    r, readCall ? c.capacityUnits() : 0, readCall ? 0 : c.capacityUnits());
        }
    }

    private static String ap(ExecutionAttributes attributes) {
        ApTag tag = attributes.getAttribute(ApTag.ATTRIBUTE);
        return tag == null ? ApTag.UNTAGGED : tag.id();
    }

    private static double seconds(ExecutionAttributes attributes) {
        Long start = attributes.getAttribute(START);
        return start == null ? 0.0 : (System.nanoTime() - start) / 1e9;
    }

    static @Nullable String partitionKey(
            Map<String, AttributeValue> item, @Nullable String attribute) {
        AttributeValue v = null;
        if (attribute != null) {
            v = item.get(attribute);
        } else if (item.size() == 1) {
            v = item.values().iterator().next();
        }
        return v == null ? null : text(v);
    }

    /** The value the key condition binds to the partition key (else its first equality). */
    static @Nullable String partitionKey(QueryRequest q, @Nullable String attribute) {
        String expr = q.keyConditionExpression();
        if (expr == null || !q.hasExpressionAttributeValues()) {
            return null;
        }
        String first = null;
        for (String clause : AND.split(expr.trim())) {
            Matcher m = EQUALITY.matcher(clause.trim());
            if (!m.matches()) {
                continue;
            }
            String name = m.group(1);
            if (name.startsWith("#") && q.hasExpressionAttributeNames()) {
                name = q.expressionAttributeNames().getOrDefault(name, name);
            }
            AttributeValue v = q.expressionAttributeValues().get(m.group(2));
            String value = v == null ? null : text(v);
            if (attribute != null && attribute.equals(name)) {
                return value;
            }
            if (first == null) {
                first = value;
            }
        }
        return first;
    }

    private static @Nullable String text(AttributeValue v) {
        if (v.s() != null) {
            return v.s();
        }
        if (v.n() != null) {
            return v.n();
        }
        if (v.b() != null) {
            return Base64.getEncoder().encodeToString(v.b().asByteArray());
        }
        return null;
    }

    private static List<ConsumedCapacity> consumedCapacity(SdkResponse r) {
        ConsumedCapacity one = null;
        if (r instanceof GetItemResponse g) {
            one = g.consumedCapacity();
        } else if (r instanceof PutItemResponse p) {
            one = p.consumedCapacity();
        } else if (r instanceof UpdateItemResponse u) {
            one = u.consumedCapacity();
        } else if (r instanceof DeleteItemResponse d) {
            one = d.consumedCapacity();
        } else if (r instanceof QueryResponse q) {
            one = q.consumedCapacity();
        } else if (r instanceof ScanResponse s) {
            one = s.consumedCapacity();
        } else if (r instanceof TransactWriteItemsResponse t && t.hasConsumedCapacity()) {
            return t.consumedCapacity();
        } else if (r instanceof TransactGetItemsResponse t && t.hasConsumedCapacity()) {
            return t.consumedCapacity();
        } else if (r instanceof BatchGetItemResponse b && b.hasConsumedCapacity()) {
            return b.consumedCapacity();
        } else if (r instanceof BatchWriteItemResponse b && b.hasConsumedCapacity()) {
            return b.consumedCapacity();
        }
        return one == null ? List.of() : List.of(one);
    }

    private static List<Map<String, AttributeValue>> readItems(SdkResponse r) {
        if (r instanceof GetItemResponse g && g.hasItem() && !g.item().isEmpty()) {
            return List.of(g.item());
        }
        if (r instanceof QueryResponse q && q.hasItems()) {
            return q.items();
        }
        if (r instanceof ScanResponse s && s.hasItems()) {
            return s.items();
        }
        return List.of();
    }

    /** What the interceptor reads off one request. */
    private static final class Call {
        final String ap;
        final String operation;
        final String table;
        final @Nullable String index;
        final boolean read;
        // a key/item map, or the QueryRequest whose key condition names the partition key
        final @Nullable Object keys;
        final List<Long> writtenSizes;
        final List<Action> actions;

        private Call(
                String ap,
                String operation,
                String table,
                @Nullable String index,
                boolean read,
                @Nullable Object keys,
                List<Long> writtenSizes) {
            this(ap, operation, table, index, read, keys, writtenSizes, List.of());
        }

        private Call(
                String ap,
                String operation,
                String table,
                @Nullable String index,
                boolean read,
                @Nullable Object keys,
                List<Long> writtenSizes,
                List<Action> actions) {
            this.ap = ap;
            this.operation = operation;
            this.table = table;
            this.index = index;
            this.read = read;
            this.keys = keys;
            this.writtenSizes = writtenSizes;
            this.actions = actions;
        }

        static @Nullable Call of(SdkRequest r, String ap) {
            String op = OPERATION.get(r.getClass());
            if (r instanceof GetItemRequest g) {
                return new Call(ap, op, g.tableName(), null, true, g.key(), List.of());
            }
            if (r instanceof PutItemRequest p) {
                return new Call(
                        ap, op, p.tableName(), null, false, p.item(), List.of(size(p.item())));
            }
            if (r instanceof UpdateItemRequest u) {
                return new Call(ap, op, u.tableName(), null, false, u.key(), List.of());
            }
            if (r instanceof DeleteItemRequest d) {
                return new Call(ap, op, d.tableName(), null, false, d.key(), List.of());
            }
            if (r instanceof QueryRequest q) {
                return new Call(ap, op, q.tableName(), q.indexName(), true, q, List.of());
            }
            if (r instanceof ScanRequest s) {
                return new Call(ap, op, s.tableName(), s.indexName(), true, null, List.of());
            }
            if (r instanceof TransactWriteItemsRequest t && t.hasTransactItems()) {
                List<Long> sizes = new ArrayList<>();
                List<Action> actions = new ArrayList<>();
                String table = null;
                for (TransactWriteItem item : t.transactItems()) {
                    String itemTable = null;
                    Map<String, AttributeValue> key = null;
                    if (item.put() != null) {
                        itemTable = item.put().tableName();
                        key = item.put().item();
                        sizes.add(size(item.put().item()));
                    } else if (item.update() != null) {
                        itemTable = item.update().tableName();
                        key = item.update().key();
                    } else if (item.delete() != null) {
                        itemTable = item.delete().tableName();
                        key = item.delete().key();
                    } else if (item.conditionCheck() != null) {
                        itemTable = item.conditionCheck().tableName();
                        key = item.conditionCheck().key();
                    }
                    if (itemTable != null && key != null) {
                        actions.add(new Action(itemTable, key));
                    }
                    if (table == null) {
                        table = itemTable;
                    }
                }
                return table == null
                        ? null
                        : new Call(
                                ap,
                                op,
                                table,
                                null,
                                false,
                                null,
                                List.copyOf(sizes),
                                List.copyOf(actions));
            }
            if (r instanceof TransactGetItemsRequest t
                    && t.hasTransactItems()
                    && !t.transactItems().isEmpty()
                    && t.transactItems().get(0).get() != null) {
                var get = t.transactItems().get(0).get();
                return new Call(ap, op, get.tableName(), null, true, get.key(), List.of());
            }
            if (r instanceof BatchGetItemRequest b && b.hasRequestItems()) {
                return b.requestItems().keySet().stream()
                        .findFirst()
                        .map(table -> new Call(ap, op, table, null, true, null, List.of()))
                        .orElse(null);
            }
            if (r instanceof BatchWriteItemRequest b && b.hasRequestItems()) {
                return b.requestItems().keySet().stream()
                        .findFirst()
                        .map(table -> new Call(ap, op, table, null, false, null, List.of()))
                        .orElse(null);
            }
            // control-plane calls (CreateTable, DescribeTable, ...) serve no AP
            return null;
        }

        private static long size(Map<String, AttributeValue> item) {
            return Av.itemSize(item);
        }
    }
}
