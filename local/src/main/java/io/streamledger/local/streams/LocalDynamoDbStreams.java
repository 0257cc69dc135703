package io.streamledger.local.streams;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.CommitListener;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.spi.StreamSettings;
import io.streamledger.local.spi.TableCatalog;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import javax.annotation.Nullable;

/**
 * The local DynamoDB Streams service: receives every commit from the engine, appends each item
 * change to the shard its key hashes to, and answers ListStreams / DescribeStream /
 * GetShardIterator / GetRecords in the wire shapes the AWS SDKs and Flink's DynamoDB Streams
 * consumer parse (CS01/CS07: per-item order only; a transaction's items may interleave).
 *
 * <p>All state sits behind this object's monitor. The engine calls {@link #onCommit} while holding
 * its own commit lock, so this class never calls the engine (the {@link TableCatalog}) while
 * holding its monitor.
 */
public final class LocalDynamoDbStreams implements StreamSettings, CommitListener, AutoCloseable {
    public static final String REGION = "us-east-1";
    public static final String ACCOUNT = "000000000000";
    public static final String EVENT_VERSION = "1.1";
    public static final String EVENT_SOURCE = "aws:dynamodb";
    public static final String SERVICE_PRINCIPAL = "dynamodb.amazonaws.com";
    static final int MAX_GET_RECORDS_LIMIT = 1000;
    static final int MAX_DESCRIBE_LIMIT = 100;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final DateTimeFormatter LABEL =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private static final HexFormat HEX = HexFormat.of();

    private static final String OP_INIT = "init";
    private static final String OP_ENABLE = "enable";
    private static final String OP_DISABLE = "disable";
    private static final String OP_COMMIT = "commit";
    private static final String OP_ROLLOVER = "rollover";

    private final long eventIdPrefix;
    private final StreamsOptions options;
    private final SequenceNumbers sequences = new SequenceNumbers();
    private final Random shuffleRandom;
    private final Map<String, TableStream> streamsByArn = new LinkedHashMap<>();
    private final Map<String, TableStream> currentByTable = new HashMap<>();
    private final Map<String, String> lastLabelByTable = new HashMap<>();
    private long lastShardStamp;
    private int shardSuffix;
    private volatile @Nullable TableCatalog catalog;
    private final @Nullable StreamsJournal journal;

    /** Time of the journal event being replayed; null when live. */
    private @Nullable Instant replayNow;

    /** True when state came from a journal: the engine's own DDL replay must not redo it. */
    private boolean restored;

    public LocalDynamoDbStreams(StreamsOptions options) {
        this(options, null);
    }

    /**
     * With a journal directory, every stream operation is journaled and replayed on the next start,
     * so streams survive a restart of a persistent endpoint.
     */
    public LocalDynamoDbStreams(StreamsOptions options, @Nullable Path journalDir) {
        this.options = options;
        this.shuffleRandom = new Random(options.seed());
        if (journalDir == null) {
            this.journal = null;
            this.eventIdPrefix = new SecureRandom().nextLong();
            return;
        }
        this.journal = new StreamsJournal(journalDir);
        long[] prefix = {new SecureRandom().nextLong()};
        long events =
                journal.replay(
                        e -> {
                            if (e.path("op").asText().equals(OP_INIT)) {
                                prefix[0] = e.path("prefix").asLong();
                            }
                        });
        this.eventIdPrefix = prefix[0];
        journal.open();
        if (events == 0) {
            ObjectNode init = JsonNodeFactory.instance.objectNode();
            init.put("op", OP_INIT).put("prefix", eventIdPrefix);
            journal.append(init);
        } else {
            journal.replay(this::replayEvent);
            restored = true;
        }
    }

    public LocalDynamoDbStreams() {
        this(StreamsOptions.defaults());
    }

    /** Gives access to table descriptions (for DescribeStream's KeySchema). */
    public void attach(TableCatalog catalog) {
        this.catalog = catalog;
        synchronized (this) {
            restored = false; // the engine has finished replaying its own log
        }
    }

    /** Closes the journal, if any. */
    @Override
    public synchronized void close() {
        if (journal != null) {
            journal.close();
        }
    }

    public StreamsOptions options() {
        return options;
    }

    // ---- StreamSettings --------------------------------------------------------------------

    @Override
    public synchronized StreamId enable(String table, String viewType) {
        ViewType view = ViewType.parse(viewType);
        if (restored && streamsByArn.values().stream().anyMatch(x -> x.tableName().equals(table))) {
            // the engine replays its DDL after our journal restored the outcome: keep ours
            return new StreamId("", "");
        }
        TableStream existing = currentByTable.get(table);
        if (existing != null) {
            if (existing.viewType() == view) {
                return new StreamId(existing.arn(), existing.label());
            }
            throw ApiException.validation("Table already has an enabled stream: " + existing.arn());
        }
        return pinned(
                () -> {
                    journal(OP_ENABLE, e -> e.put("table", table).put("view", view.name()));
                    return doEnable(table, view);
                });
    }

    private StreamId doEnable(String table, ViewType view) {
        Instant now = now();
        String label = uniqueLabel(table, now);
        String arn = streamArn(table, label);
        TableStream stream =
                new TableStream(arn, label, table, view, null, now, options.shardsPerTable());
        for (int slot = 0; slot < stream.slots(); slot++) {
            stream.setOpen(slot, newShard(null));
        }
        streamsByArn.put(arn, stream);
        currentByTable.put(table, stream);
        return new StreamId(arn, label);
    }

    @Override
    public synchronized void disable(String table) {
        if (restored || !currentByTable.containsKey(table)) {
            return;
        }
        pinned(
                () -> {
                    journal(OP_DISABLE, e -> e.put("table", table));
                    doDisable(table);
                    return null;
                });
    }

    private void doDisable(String table) {
        TableStream stream = currentByTable.remove(table);
        Instant now = now();
        for (int slot = 0; slot < stream.slots(); slot++) {
            stream.open(slot).close(sequences.next(), now);
        }
        stream.markDisabled();
    }

    @Override
    public synchronized Optional<StreamId> current(String table) {
        TableStream s = currentByTable.get(table);
        return s == null ? Optional.empty() : Optional.of(new StreamId(s.arn(), s.label()));
    }

    @Override
    public void tableDeleted(String table) {
        disable(table); // records stay readable until retention, as on AWS
    }

    // ---- CommitListener --------------------------------------------------------------------

    @Override
    public synchronized void onCommit(List<ItemChange> changes) {
        List<ItemChange> captured = new ArrayList<>(changes.size());
        for (ItemChange c : changes) {
            if (currentByTable.containsKey(c.table())) {
                captured.add(c);
            }
        }
        if (captured.isEmpty()) {
            return;
        }
        pinned(
                () -> {
                    if (journal != null) {
                        journal(
                                OP_COMMIT,
                                e -> {
                                    ArrayNode list = e.putArray("changes");
                                    captured.forEach(c -> list.add(ItemChangeJson.write(c)));
                                });
                    }
                    doCommit(captured);
                    return null;
                });
    }

    private void doCommit(List<ItemChange> changes) {
        List<ItemChange> ordered = changes;
        if (options.shuffleTransactions() && changes.size() > 1) {
            ordered = new ArrayList<>(changes);
            Collections.shuffle(ordered, shuffleRandom); // AWS may interleave a transaction
        }
        Instant now = now();
        for (ItemChange change : ordered) {
            TableStream stream = currentByTable.get(change.table());
            if (stream == null) {
                continue;
            }
            int slot = ItemKeyHash.bucket(change.keys(), stream.slots());
            StreamShard shard = stream.open(slot);
            if (options.maxRecordsPerShard() > 0
                    && shard.appendedCount() >= options.maxRecordsPerShard()) {
                shard = rollover(stream, slot, now);
            }
            long seq = sequences.next();
            shard.append(new StreamEntry(seq, eventId(seq), change, now));
            if (shard.endPosition() - shard.firstPosition() > options.maxRetainedPerShard()) {
                // trimming in batches of 1/16 keeps subList.clear() rare
                shard.trimToSize(
                        options.maxRetainedPerShard() - options.maxRetainedPerShard() / 16);
            }
        }
    }

    // ---- Java API for tests and export -----------------------------------------------------

    /** Closes every open shard of the table's current stream and opens a child for each. */
    public synchronized void rolloverShards(String table) {
        TableStream stream = currentByTable.get(table);
        if (stream == null) {
            throw ApiException.resourceNotFound("Table " + table + " has no enabled stream");
        }
        pinned(
                () -> {
                    journal(OP_ROLLOVER, e -> e.put("table", table));
                    doRollover(stream);
                    return null;
                });
    }

    private void doRollover(TableStream stream) {
        Instant now = now();
        for (int slot = 0; slot < stream.slots(); slot++) {
            rollover(stream, slot, now);
        }
    }

    /**
     * Stream position of a table right now: its current stream ARN and, per shard, the last
     * sequence number appended (absent for empty shards). Export records this in its manifest.
     */
    public synchronized Optional<StreamPosition> position(String table) {
        TableStream stream = currentByTable.get(table);
        if (stream == null) {
            return Optional.empty();
        }
        Map<String, String> last = new LinkedHashMap<>();
        for (StreamShard shard : stream.shards()) {
            List<StreamEntry> tail =
                    shard.appendedCount() == 0 || shard.endPosition() == shard.firstPosition()
                            ? List.of()
                            : shard.read(shard.endPosition() - 1, 1);
            if (!tail.isEmpty()) {
                last.put(shard.shardId(), SequenceNumbers.format(tail.get(0).sequence()));
            }
        }
        return Optional.of(new StreamPosition(stream.arn(), last));
    }

    /** A table's stream position: stream ARN plus last sequence number per non-empty shard. */
    public record StreamPosition(String streamArn, Map<String, String> lastSequenceByShard) {}

    // ---- DynamoDBStreams_20120810 operations -----------------------------------------------

    public synchronized ObjectNode listStreams(ObjectNode request) {
        String tableName = text(request, "TableName");
        int limit = limit(request, "Limit", 100, 100);
        String exclusiveStart = text(request, "ExclusiveStartStreamArn");
        Instant cutoff = cutoff();
        // a disabled stream whose every shard has passed retention is gone, as on AWS
        streamsByArn
                .values()
                .removeIf(
                        s -> {
                            trim(s, cutoff);
                            return s.status() == TableStream.Status.DISABLED
                                    && s.shards().isEmpty();
                        });
        List<TableStream> matching = new ArrayList<>();
        for (TableStream s : streamsByArn.values()) {
            if (tableName == null || tableName.equals(s.tableName())) {
                matching.add(s);
            }
        }
        int start = 0;
        if (exclusiveStart != null) {
            start = -1;
            for (int i = 0; i < matching.size(); i++) {
                if (matching.get(i).arn().equals(exclusiveStart)) {
                    start = i + 1;
                }
            }
            if (start < 0) {
                throw StreamsErrors.streamNotFound(exclusiveStart);
            }
        }
        ObjectNode out = JSON.objectNode();
        ArrayNode streams = out.putArray("Streams");
        int end = Math.min(matching.size(), start + limit);
        for (int i = start; i < end; i++) {
            TableStream s = matching.get(i);
            streams.addObject()
                    .put("StreamArn", s.arn())
                    .put("TableName", s.tableName())
                    .put("StreamLabel", s.label());
        }
        if (end < matching.size()) {
            out.put("LastEvaluatedStreamArn", matching.get(end - 1).arn());
        }
        return out;
    }

    public ObjectNode describeStream(ObjectNode request) {
        String arn = required(request, "StreamArn");
        int limit = limit(request, "Limit", MAX_DESCRIBE_LIMIT, MAX_DESCRIBE_LIMIT);
        String exclusiveStart = text(request, "ExclusiveStartShardId");
        String childrenOf = childShardFilter(request);
        String table = tableOf(arn);
        ArrayNode keySchema = table == null ? null : keySchemaOf(table); // outside the monitor
        synchronized (this) {
            TableStream stream = stream(arn);
            trim(stream, cutoff());
            ObjectNode out = JSON.objectNode();
            ObjectNode d = out.putObject("StreamDescription");
            d.put("StreamArn", stream.arn());
            d.put("StreamLabel", stream.label());
            d.put("StreamStatus", stream.status().name());
            d.put("StreamViewType", stream.viewType().name());
            d.put("CreationRequestDateTime", stream.createdAt().getEpochSecond());
            d.put("TableName", stream.tableName());
            if (keySchema != null) {
                d.set("KeySchema", keySchema);
            }
            ArrayNode shards = d.putArray("Shards");
            List<StreamShard> all = stream.shards();
            int emitted = 0;
            String lastEmitted = null;
            boolean more = false;
            for (StreamShard shard : all) {
                if (exclusiveStart != null && shard.shardId().compareTo(exclusiveStart) <= 0) {
                    continue; // shard ids increase with creation, as AWS's do
                }
                if (childrenOf != null && !childrenOf.equals(shard.parentShardId())) {
                    continue;
                }
                if (emitted == limit) {
                    more = true;
                    break;
                }
                ObjectNode s = shards.addObject();
                s.put("ShardId", shard.shardId());
                if (shard.parentShardId() != null) {
                    s.put("ParentShardId", shard.parentShardId());
                }
                ObjectNode range = s.putObject("SequenceNumberRange");
                range.put(
                        "StartingSequenceNumber", SequenceNumbers.format(shard.startingSequence()));
                if (shard.isClosed()) {
                    range.put(
                            "EndingSequenceNumber", SequenceNumbers.format(shard.endingSequence()));
                }
                emitted++;
                lastEmitted = shard.shardId();
            }
            if (more) {
                d.put("LastEvaluatedShardId", lastEmitted);
            }
            return out;
        }
    }

    public synchronized ObjectNode getShardIterator(ObjectNode request) {
        String arn = required(request, "StreamArn");
        String shardId = required(request, "ShardId");
        String type = required(request, "ShardIteratorType");
        TableStream stream = stream(arn);
        trim(stream, cutoff());
        StreamShard shard = stream.shard(shardId);
        if (shard == null) {
            throw StreamsErrors.shardNotFound(arn, shardId);
        }
        long position;
        switch (type) {
            case "TRIM_HORIZON":
                position = shard.firstPosition();
                break;
            case "LATEST":
                position = shard.endPosition();
                break;
            case "AT_SEQUENCE_NUMBER":
            case "AFTER_SEQUENCE_NUMBER":
                {
                    String raw = text(request, "SequenceNumber");
                    if (raw == null) {
                        throw ApiException.validation(
                                "SequenceNumber is required for ShardIteratorType " + type);
                    }
                    long seq = SequenceNumbers.parse(raw);
                    Long ending = shard.endingSequence();
                    if (seq < shard.startingSequence() || (ending != null && seq > ending)) {
                        throw ApiException.validation(
                                "Invalid SequenceNumber "
                                        + raw
                                        + " for shard "
                                        + shardId
                                        + ": outside its sequence number range");
                    }
                    if (seq <= shard.lastTrimmedSequence()) {
                        throw StreamsErrors.trimmed("sequence number " + raw);
                    }
                    position = shard.positionOf(seq, type.startsWith("AFTER"));
                    break;
                }
            default:
                throw ApiException.validation(
                        "1 validation error detected: Value '"
                                + type
                                + "' at 'shardIteratorType' failed to satisfy constraint: Member"
                                + " must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST,"
                                + " AT_SEQUENCE_NUMBER, TRIM_HORIZON]");
        }
        ObjectNode out = JSON.objectNode();
        out.put(
                "ShardIterator",
                ShardIterators.encode(new ShardIterators.Position(arn, shardId, position, now())));
        return out;
    }

    public synchronized ObjectNode getRecords(ObjectNode request) {
        ShardIterators.Position it = ShardIterators.decode(required(request, "ShardIterator"));
        int limit = limit(request, "Limit", MAX_GET_RECORDS_LIMIT, MAX_GET_RECORDS_LIMIT);
        Instant now = now();
        if (now.isAfter(it.issuedAt().plus(options.iteratorLifetime()))) {
            throw StreamsErrors.expiredIterator();
        }
        TableStream stream = stream(it.streamArn());
        trim(stream, cutoff());
        StreamShard shard = stream.shard(it.shardId());
        if (shard == null) {
            throw StreamsErrors.trimmed("shard " + it.shardId() + " has expired");
        }
        if (it.position() < shard.firstPosition()) {
            throw StreamsErrors.trimmed("shard " + it.shardId() + " position " + it.position());
        }
        List<StreamEntry> entries = shard.read(it.position(), limit);
        ObjectNode out = JSON.objectNode();
        ArrayNode records = out.putArray("Records");
        for (StreamEntry e : entries) {
            records.add(render(e, stream.viewType()));
        }
        long next = it.position() + entries.size();
        if (!(shard.isClosed() && next >= shard.endPosition())) {
            out.put(
                    "NextShardIterator",
                    ShardIterators.encode(
                            new ShardIterators.Position(it.streamArn(), it.shardId(), next, now)));
        }
        return out;
    }

    // ---- helpers ---------------------------------------------------------------------------

    /**
     * Runs a journaled operation with one time for the journal line and the operation, so that
     * replay (which uses the journaled time) rebuilds identical labels and shard ids.
     */
    private <T> T pinned(java.util.function.Supplier<T> op) {
        if (replayNow != null) {
            return op.get();
        }
        replayNow = options.clock().instant();
        try {
            return op.get();
        } finally {
            replayNow = null;
        }
    }

    private Instant now() {
        return replayNow != null ? replayNow : options.clock().instant();
    }

    private void journal(String op, java.util.function.Consumer<ObjectNode> fill) {
        if (journal == null) {
            return;
        }
        ObjectNode e = JSON.objectNode();
        e.put("op", op).put("at", now().toString());
        fill.accept(e);
        journal.append(e);
    }

    /** Re-runs one journaled operation at its recorded time. */
    private void replayEvent(ObjectNode e) {
        String op = e.path("op").asText();
        if (op.equals(OP_INIT)) {
            return;
        }
        replayNow = Instant.parse(e.path("at").asText());
        try {
            String table = e.path("table").asText();
            switch (op) {
                case OP_ENABLE:
                    doEnable(table, ViewType.parse(e.path("view").asText()));
                    break;
                case OP_DISABLE:
                    if (currentByTable.containsKey(table)) {
                        doDisable(table);
                    }
                    break;
                case OP_COMMIT:
                    {
                        List<ItemChange> changes = new ArrayList<>();
                        e.path("changes").forEach(c -> changes.add(ItemChangeJson.read(c)));
                        doCommit(changes);
                        break;
                    }
                case OP_ROLLOVER:
                    {
                        TableStream stream = currentByTable.get(table);
                        if (stream != null) {
                            doRollover(stream);
                        }
                        break;
                    }
                default:
                    throw new IllegalStateException("unknown streams journal op " + op);
            }
        } finally {
            replayNow = null;
        }
    }

    /** 32 hex digits, unique per record: a per-endpoint random half plus the sequence number. */
    private String eventId(long sequence) {
        return HEX.toHexDigits(eventIdPrefix) + HEX.toHexDigits(sequence);
    }

    /** One record in the DynamoDB Streams wire shape (Record / StreamRecord / Identity). */
    static ObjectNode render(StreamEntry e, ViewType view) {
        ItemChange c = e.change();
        ObjectNode r = JSON.objectNode();
        r.put("eventID", e.eventId());
        r.put("eventName", c.eventName().name());
        r.put("eventVersion", EVENT_VERSION);
        r.put("eventSource", EVENT_SOURCE);
        r.put("awsRegion", REGION);
        ObjectNode d = r.putObject("dynamodb");
        d.put("ApproximateCreationDateTime", c.committedAt().getEpochSecond());
        d.set("Keys", c.keys().deepCopy());
        long size = WireItemSize.ofAttributes(c.keys());
        if (view.newImage && c.newImage() != null) {
            d.set("NewImage", c.newImage().deepCopy());
            size += WireItemSize.ofAttributes(c.newImage());
        }
        if (view.oldImage && c.oldImage() != null) {
            d.set("OldImage", c.oldImage().deepCopy());
            size += WireItemSize.ofAttributes(c.oldImage());
        }
        d.put("SequenceNumber", SequenceNumbers.format(e.sequence()));
        d.put("SizeBytes", size);
        d.put("StreamViewType", view.name());
        if (c.serviceDelete()) {
            r.putObject("userIdentity")
                    .put("PrincipalId", SERVICE_PRINCIPAL)
                    .put("Type", "Service");
        }
        return r;
    }

    public static String streamArn(String table, String label) {
        return "arn:aws:dynamodb:"
                + REGION
                + ":"
                + ACCOUNT
                + ":table/"
                + table
                + "/stream/"
                + label;
    }

    private static @Nullable String tableOf(String arn) {
        int t = arn.indexOf(":table/");
        int s = arn.indexOf("/stream/");
        return t < 0 || s < t ? null : arn.substring(t + 7, s);
    }

    private @Nullable ArrayNode keySchemaOf(String table) {
        TableCatalog c = catalog;
        if (c == null) {
            return null;
        }
        return c.describe(table)
                .map(d -> d.get("KeySchema"))
                .filter(JsonNode::isArray)
                .map(n -> (ArrayNode) n.deepCopy())
                .orElse(null);
    }

    private TableStream stream(String arn) {
        TableStream stream = streamsByArn.get(arn);
        if (stream == null) {
            throw StreamsErrors.streamNotFound(arn);
        }
        return stream;
    }

    private StreamShard rollover(TableStream stream, int slot, Instant now) {
        StreamShard old = stream.open(slot);
        old.close(sequences.next(), now);
        StreamShard child = newShard(old.shardId());
        stream.setOpen(slot, child);
        return child;
    }

    private StreamShard newShard(@Nullable String parent) {
        long stamp = Math.max(lastShardStamp + 1, now().toEpochMilli());
        lastShardStamp = stamp;
        String id = String.format("shardId-%020d-%08x", stamp, ++shardSuffix);
        return new StreamShard(id, parent, sequences.next());
    }

    private String uniqueLabel(String table, Instant now) {
        String label = LABEL.format(now);
        String previous = lastLabelByTable.get(table);
        Instant t = now;
        while (previous != null && label.compareTo(previous) <= 0) {
            t = t.plusMillis(1); // a re-enable within the same millisecond still gets a new ARN
            label = LABEL.format(t);
        }
        lastLabelByTable.put(table, label);
        return label;
    }

    private Instant cutoff() {
        return now().minus(options.retention());
    }

    private static void trim(TableStream stream, Instant cutoff) {
        for (StreamShard shard : stream.shards()) {
            shard.trimBefore(cutoff);
            if (shard.expired(cutoff)) {
                stream.forget(shard);
            }
        }
    }

    /** ShardFilter {Type: CHILD_SHARDS, ShardId}: only that shard's children are listed. */
    private static @Nullable String childShardFilter(ObjectNode request) {
        JsonNode filter = request.get("ShardFilter");
        if (filter == null || filter.isNull()) {
            return null;
        }
        if (!"CHILD_SHARDS".equals(filter.path("Type").asText())) {
            throw ApiException.validation(
                    "ShardFilter.Type must be CHILD_SHARDS: " + filter.path("Type").asText());
        }
        String shardId = filter.path("ShardId").asText("");
        if (shardId.isEmpty()) {
            throw ApiException.validation("ShardFilter.ShardId is required for CHILD_SHARDS");
        }
        return shardId;
    }

    private static @Nullable String text(ObjectNode request, String field) {
        JsonNode n = request.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }

    private static String required(ObjectNode request, String field) {
        String v = text(request, field);
        if (v == null || v.isEmpty()) {
            throw ApiException.validation(
                    "1 validation error detected: Value null at '"
                            + Character.toLowerCase(field.charAt(0))
                            + field.substring(1)
                            + "' failed to satisfy constraint: Member must not be null");
        }
        return v;
    }

    private static int limit(ObjectNode request, String field, int dflt, int max) {
        JsonNode n = request.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        int v = n.asInt();
        if (v < 1 || v > max) {
            throw ApiException.validation(
                    "1 validation error detected: Value '"
                            + n.asText()
                            + "' at 'limit' failed to satisfy constraint: Member must have value"
                            + " less than or equal to "
                            + max
                            + " and greater than or equal to 1");
        }
        return v;
    }
}
