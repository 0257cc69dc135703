package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.fault.FaultInjector;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.CommitListener;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.spi.StreamSettings;
import io.streamledger.local.spi.TableCatalog;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * The DynamoDB engine of the local endpoint: tables, the commit path (one global commit lock for
 * writes, lock-free reads), the write-ahead log and the commit listeners that Streams builds on
 * (CS01 commit order of the AP08/AP16/AP17 admission transaction, CS07 ordered change records).
 * Operations are served by the *Operations classes of this package.
 */
public final class DynamoDbEngine implements TableCatalog, AutoCloseable {
    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(DynamoDbEngine.class);

    /** Operations of DynamoDB_20120810 that the engine serves. */
    public static final Set<String> OPERATIONS =
            Set.of(
                    "CreateTable",
                    "DeleteTable",
                    "DescribeTable",
                    "ListTables",
                    "UpdateTable",
                    "UpdateTimeToLive",
                    "DescribeTimeToLive",
                    "DescribeContinuousBackups",
                    "UpdateContinuousBackups",
                    "PutItem",
                    "GetItem",
                    "UpdateItem",
                    "DeleteItem",
                    "Query",
                    "Scan",
                    "BatchGetItem",
                    "BatchWriteItem",
                    "TransactWriteItems",
                    "TransactGetItems",
                    "DescribeLimits",
                    "ListTagsOfResource",
                    "TagResource",
                    "UntagResource");

    static final String ACCOUNT = "000000000000";
    public static final String REGION = "us-east-1";

    final ObjectMapper mapper;
    final Clock clock;
    final FaultInjector faults;
    final Map<String, Table> tables = new ConcurrentHashMap<>();
    final ReentrantLock commitLock = new ReentrantLock();
    private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();
    final @Nullable StreamSettings streamSettings;
    private final @Nullable WriteAheadLog wal;
    private boolean replaying;

    final IndexBackfill backfill = new IndexBackfill(this);
    private final TableOperations tableOps = new TableOperations(this);
    private final ItemOperations itemOps = new ItemOperations(this);
    private final ReadOperations readOps = new ReadOperations(this);
    private final BatchWriteOperation batchWrite = new BatchWriteOperation(this);
    final TransactWriteOperation transactWrite;

    public DynamoDbEngine(
            ObjectMapper mapper,
            Clock clock,
            FaultInjector faults,
            @Nullable StreamSettings streamSettings,
            @Nullable Path dataDir,
            boolean fsync) {
        this.mapper = mapper;
        this.clock = clock;
        this.faults = faults;
        this.streamSettings = streamSettings;
        this.transactWrite = new TransactWriteOperation(this);
        if (dataDir != null) {
            wal = new WriteAheadLog(dataDir, mapper, fsync);
            replaying = true;
            try {
                wal.replay(this::replay);
            } finally {
                replaying = false;
            }
            wal.rewrite(compactedLog());
            wal.open();
        } else {
            wal = null;
        }
    }

    public void addCommitListener(CommitListener listener) {
        listeners.add(listener);
    }

    public FaultInjector faults() {
        return faults;
    }

    /** Pace of online GSI backfills: items per commit-lock hold, pause between chunks. */
    public void configureIndexBackfill(int chunkItems, Duration pauseBetweenChunks) {
        backfill.configure(chunkItems, pauseBetweenChunks);
    }

    /** Holds (true) or releases running GSI backfills before their next chunk; for tests. */
    public void holdIndexBackfills(boolean hold) {
        backfill.hold(hold);
    }

    /** Serves one DynamoDB_20120810 operation. */
    public ObjectNode handle(String operation, ObjectNode request) {
        return switch (operation) {
            case "CreateTable" -> tableOps.create(request);
            case "DeleteTable" -> tableOps.delete(request);
            case "DescribeTable" -> tableOps.describe(request);
            case "ListTables" -> tableOps.list(request);
            case "UpdateTable" -> tableOps.update(request);
            case "UpdateTimeToLive" -> tableOps.updateTimeToLive(request);
            case "DescribeTimeToLive" -> tableOps.describeTimeToLive(request);
            case "DescribeContinuousBackups" -> tableOps.describeContinuousBackups(request);
            case "UpdateContinuousBackups" -> tableOps.updateContinuousBackups(request);
            case "DescribeLimits" -> tableOps.describeLimits();
            case "ListTagsOfResource" -> tableOps.listTags(request);
            case "TagResource", "UntagResource" -> tableOps.tag(request);
            case "PutItem" -> itemOps.put(request);
            case "GetItem" -> readOps.get(request);
            case "UpdateItem" -> itemOps.update(request);
            case "DeleteItem" -> itemOps.delete(request);
            case "Query" -> readOps.query(request);
            case "Scan" -> readOps.scan(request);
            case "BatchGetItem" -> readOps.batchGet(request);
            case "BatchWriteItem" -> batchWrite.handle(request);
            case "TransactWriteItems" -> transactWrite.handle(request);
            case "TransactGetItems" -> readOps.transactGet(request);
            default ->
                    throw new ApiException(
                            "UnknownOperationException", 400, "Unknown operation: " + operation);
        };
    }

    /** The table named by a request's TableName; ResourceNotFoundException if absent. */
    Table table(JsonNode request) {
        JsonNode n = request.get("TableName");
        if (n == null || !n.isTextual()) {
            throw ApiException.validation(
                    "1 validation error detected: Value null at 'tableName' failed to satisfy"
                            + " constraint: Member must not be null");
        }
        return table(n.asText());
    }

    /** The live table of that name, or null; PartiQL plans its reads and writes on its keys. */
    public @Nullable Table liveTable(String name) {
        return tables.get(name);
    }

    Table table(String name) {
        Table t = tables.get(name);
        if (t == null) {
            throw ApiException.resourceNotFound("Requested resource not found");
        }
        return t;
    }

    // ------------------------------------------------------------------ commit path

    /** One item write of a commit. */
    record Write(
            Table table, KeyValue pk, @Nullable ObjectNode oldItem, @Nullable ObjectNode newItem) {}

    /**
     * Applies writes atomically; the caller holds {@link #commitLock} and has checked every
     * condition. Logs before notifying and before the caller acknowledges; index maintenance goes
     * into {@code capacity} (never multiplied by a transaction).
     */
    void commit(
            List<Write> writes,
            @Nullable String transactionId,
            boolean serviceDelete,
            @Nullable Capacity capacity) {
        Instant now = clock.instant();
        // log first: if the append fails nothing is applied and the caller gets an error
        if (wal != null) {
            ObjectNode walRecord = mapper.createObjectNode();
            ArrayNode walWrites = walRecord.putArray("w");
            for (Write w : writes) {
                if (w.oldItem() == null && w.newItem() == null) {
                    continue;
                }
                ObjectNode rec = walWrites.addObject();
                rec.put("t", w.table().name);
                rec.set(
                        "k",
                        w.table().keyAttributes(w.newItem() != null ? w.newItem() : w.oldItem()));
                rec.set("n", w.newItem());
            }
            if (!walWrites.isEmpty()) {
                wal.append(walRecord);
            }
        }
        List<ItemChange> changes = new ArrayList<>(writes.size());
        for (Write w : writes) {
            List<Table.IndexWrite> idx = w.table().apply(w.pk(), w.oldItem(), w.newItem());
            if (capacity != null) {
                for (Table.IndexWrite iw : idx) {
                    capacity.indexWrite(w.table().name, iw.index(), iw.global(), iw.units());
                }
            }
            if (w.oldItem() == null && w.newItem() == null) {
                continue;
            }
            if (w.oldItem() != null && w.newItem() != null && sameItem(w.oldItem(), w.newItem())) {
                continue; // no data change: DynamoDB Streams writes no record
            }
            ObjectNode keys =
                    w.table().keyAttributes(w.newItem() != null ? w.newItem() : w.oldItem());
            ItemChange.EventName event =
                    w.oldItem() == null
                            ? ItemChange.EventName.INSERT
                            : w.newItem() == null
                                    ? ItemChange.EventName.REMOVE
                                    : ItemChange.EventName.MODIFY;
            long size =
                    Math.max(
                            w.oldItem() == null ? 0 : ItemSize.of(w.oldItem()),
                            w.newItem() == null ? 0 : ItemSize.of(w.newItem()));
            changes.add(
                    new ItemChange(
                            w.table().name,
                            event,
                            keys,
                            w.oldItem(),
                            w.newItem(),
                            size,
                            transactionId,
                            serviceDelete,
                            now));
        }
        if (!changes.isEmpty()) {
            List<ItemChange> immutable = List.copyOf(changes);
            for (CommitListener l : listeners) {
                try {
                    l.onCommit(immutable);
                } catch (RuntimeException e) {
                    // the write is committed and logged; a failing listener must not turn it into
                    // an error the client would retry
                    LOG.error("commit listener {} failed", l, e);
                }
            }
        }
    }

    private static boolean sameItem(ObjectNode a, ObjectNode b) {
        if (a.size() != b.size()) {
            return false;
        }
        var it = a.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (!AttributeValues.valueEquals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Logs a table-definition change (CreateTable etc.) so replay rebuilds the catalog. */
    void logDefinition(String operation, ObjectNode request) {
        if (wal != null && !replaying) {
            ObjectNode rec = mapper.createObjectNode();
            rec.put("ddl", operation);
            rec.set("r", request);
            wal.append(rec);
        }
    }

    boolean replaying() {
        return replaying;
    }

    /** Definition records of live tables seen during replay, in order, for compaction. */
    private final Map<String, List<ObjectNode>> replayedDefinitions =
            new java.util.LinkedHashMap<>();

    private void replay(ObjectNode record) {
        if (record.has("ddl")) {
            String op = record.get("ddl").asText();
            tableOps.replay(op, (ObjectNode) record.get("r"));
            String name = record.get("r").path("TableName").asText();
            if (op.equals("DeleteTable")) {
                replayedDefinitions.remove(name);
            } else if (op.equals("CreateTable")) {
                replayedDefinitions.remove(name);
                replayedDefinitions.computeIfAbsent(name, n -> new ArrayList<>()).add(record);
            } else {
                replayedDefinitions.computeIfAbsent(name, n -> new ArrayList<>()).add(record);
            }
            return;
        }
        for (JsonNode w : record.get("w")) {
            Table t = tables.get(w.get("t").asText());
            if (t == null) {
                continue; // table deleted later in the log
            }
            KeyValue pk = t.primaryKey(w.get("k"), true);
            JsonNode n = w.get("n");
            t.apply(pk, t.items.get(pk), n == null || n.isNull() ? null : (ObjectNode) n);
        }
    }

    /** The live state as log records: table definitions, then items in chunks. */
    private List<ObjectNode> compactedLog() {
        List<ObjectNode> out = new ArrayList<>();
        replayedDefinitions.values().forEach(out::addAll);
        replayedDefinitions.clear();
        for (Table t : tables.values()) {
            ObjectNode rec = null;
            for (ObjectNode item : t.items.values()) {
                if (rec == null || rec.get("w").size() == 1000) {
                    rec = mapper.createObjectNode();
                    rec.putArray("w");
                    out.add(rec);
                }
                ObjectNode w = ((ArrayNode) rec.get("w")).addObject();
                w.put("t", t.name);
                w.set("k", t.keyAttributes(item));
                w.set("n", item);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ TTL

    /**
     * Deletes items whose TTL attribute (epoch seconds) is at or before now, each as a service
     * delete; items expired more than five years ago are left alone, as in DynamoDB. Returns the
     * number deleted.
     */
    public int sweepExpired() {
        long nowSeconds = clock.instant().getEpochSecond();
        long floor = nowSeconds - Duration.ofDays(5 * 365).toSeconds();
        int deleted = 0;
        for (Table t : tables.values()) {
            String attr = t.ttlAttribute;
            if (attr == null) {
                continue;
            }
            for (Map.Entry<KeyValue, ObjectNode> e : t.items.entrySet()) {
                if (!expired(e.getValue(), attr, nowSeconds, floor)) {
                    continue;
                }
                commitLock.lock();
                try {
                    ObjectNode current = t.items.get(e.getKey());
                    if (current != null
                            && tables.get(t.name) == t
                            && expired(current, attr, nowSeconds, floor)) {
                        commit(List.of(new Write(t, e.getKey(), current, null)), null, true, null);
                        deleted++;
                    }
                } finally {
                    commitLock.unlock();
                }
            }
        }
        return deleted;
    }

    private static boolean expired(ObjectNode item, String attr, long now, long floor) {
        JsonNode v = item.get(attr);
        if (v == null || !v.has("N")) {
            return false;
        }
        BigDecimal at = new BigDecimal(v.get("N").asText());
        return at.compareTo(BigDecimal.valueOf(now)) <= 0
                && at.compareTo(BigDecimal.valueOf(floor)) >= 0;
    }

    // ------------------------------------------------------------------ TableCatalog

    @Override
    public Optional<ObjectNode> describe(String table) {
        Table t = tables.get(table);
        return t == null ? Optional.empty() : Optional.of(tableOps.description(t));
    }

    @Override
    public List<String> tableNames() {
        return List.copyOf(new TreeSet<>(tables.keySet()));
    }

    @Override
    public long snapshot(String table, Runnable atCommit, Consumer<ObjectNode> items) {
        commitLock.lock();
        try {
            Table t = table(table);
            atCommit.run();
            long n = 0;
            for (ObjectNode item : t.items.values()) {
                items.accept(item);
                n++;
            }
            return n;
        } finally {
            commitLock.unlock();
        }
    }

    @Override
    public void close() {
        backfill.close();
        commitLock.lock();
        try {
            if (wal != null) {
                wal.close();
            }
        } finally {
            commitLock.unlock();
        }
    }
}
