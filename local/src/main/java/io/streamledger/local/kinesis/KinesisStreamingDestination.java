package io.streamledger.local.kinesis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.ApiExtension;
import io.streamledger.local.spi.CommitListener;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.spi.TableCatalog;
import io.streamledger.local.streams.ItemKeyHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResultEntry;
import software.amazon.awssdk.services.kinesis.model.ResourceNotFoundException;

/**
 * Kinesis Data Streams for DynamoDB: serves Enable/Disable/DescribeKinesisStreamingDestination and
 * forwards every committed change of an enabled table, in AWS's JSON record shape, to the
 * configured Kinesis endpoint with PutRecords from a background thread; partition key = hash of the
 * item key, optional duplicate/reorder injection (CS06/CS07: this path is at-least-once and
 * unordered; consumers dedupe by eventID and order by ApproximateCreationDateTime / version).
 */
public final class KinesisStreamingDestination
        implements CommitListener, ApiExtension, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KinesisStreamingDestination.class);

    public static final String PREFIX = "DynamoDB_20120810.";
    public static final String ENABLE = PREFIX + "EnableKinesisStreamingDestination";
    public static final String DISABLE = PREFIX + "DisableKinesisStreamingDestination";
    public static final String DESCRIBE = PREFIX + "DescribeKinesisStreamingDestination";

    private static final Pattern STREAM_ARN =
            Pattern.compile(
                    "^arn:aws[a-z-]*:kinesis:[a-z0-9-]+:\\d{12}:stream/[A-Za-z0-9_.-]{1,128}$");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Destination lifecycle, as DescribeKinesisStreamingDestination shows it. */
    enum Status {
        ENABLING,
        ACTIVE,
        DISABLING,
        DISABLED
    }

    private record Destination(String streamArn, Status status, String precision) {}

    /** One change waiting to be sent; rendered on the sender thread, off the commit path. */
    private record Pending(String streamName, String precision, ItemChange change) {}

    /** One rendered record. */
    private record Rendered(String streamName, String partitionKey, byte[] data) {}

    private final KinesisDestinationOptions options;
    private final String region;
    private final Map<String, Map<String, Destination>> byTable = new ConcurrentHashMap<>();
    private final BlockingQueue<Pending> queue;
    private final Random random;
    private final Thread sender;
    private final AtomicLong enqueued = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong duplicated = new AtomicLong();
    private final AtomicLong reordered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean running = true;
    private volatile @Nullable TableCatalog catalog;
    private volatile @Nullable KinesisClient client;

    public KinesisStreamingDestination(KinesisDestinationOptions options) {
        this(options, KinesisLocal.REGION);
    }

    public KinesisStreamingDestination(KinesisDestinationOptions options, String region) {
        this.options = options;
        this.region = region;
        this.queue = new LinkedBlockingQueue<>(options.queueCapacity());
        this.random = new Random(options.seed());
        this.sender = new Thread(this::sendLoop, "kinesis-destination-sender");
        this.sender.setDaemon(true);
        this.sender.start();
    }

    /** Lets Enable check that the table exists. */
    public void attach(TableCatalog catalog) {
        this.catalog = catalog;
    }

    // ---- ApiExtension ----------------------------------------------------------------------

    @Override
    public Set<String> targets() {
        return Set.of(ENABLE, DISABLE, DESCRIBE);
    }

    @Override
    public JsonNode handle(String target, ObjectNode request) {
        switch (target) {
            case ENABLE:
                return enable(request);
            case DISABLE:
                return disable(request);
            case DESCRIBE:
                return describe(request);
            default:
                throw new ApiException(
                        "UnknownOperationException", 400, "Unknown operation " + target);
        }
    }

    private ObjectNode enable(ObjectNode request) {
        String table = existingTable(request);
        String arn = streamArn(request);
        String precision = KinesisChangeRecord.MILLISECOND; // the record shape consumers here parse
        JsonNode config = request.get("EnableKinesisStreamingConfiguration");
        if (config != null && config.hasNonNull("ApproximateCreationDateTimePrecision")) {
            precision = config.get("ApproximateCreationDateTimePrecision").asText();
            if (!precision.equals(KinesisChangeRecord.MILLISECOND)
                    && !precision.equals(KinesisChangeRecord.MICROSECOND)) {
                throw ApiException.validation(
                        "ApproximateCreationDateTimePrecision must be MILLISECOND or MICROSECOND");
            }
        }
        requireKinesisStream(arn);
        Map<String, Destination> dests = byTable.computeIfAbsent(table, t -> new LinkedHashMap<>());
        synchronized (dests) {
            Destination existing = dests.get(arn);
            if (existing != null && existing.status() == Status.ACTIVE) {
                throw new ApiException(
                        "ResourceInUseException",
                        400,
                        "Table " + table + " is already streaming to " + arn);
            }
            // forwarding starts now; Describe shows ACTIVE from the next call on
            dests.put(arn, new Destination(arn, Status.ACTIVE, precision));
        }
        ObjectNode out = JSON.objectNode();
        out.put("TableName", table);
        out.put("StreamArn", arn);
        out.put("DestinationStatus", Status.ENABLING.name());
        out.putObject("EnableKinesisStreamingConfiguration")
                .put("ApproximateCreationDateTimePrecision", precision);
        return out;
    }

    private ObjectNode disable(ObjectNode request) {
        String table = existingTable(request);
        String arn = streamArn(request);
        Map<String, Destination> dests = byTable.get(table);
        Destination existing = dests == null ? null : dests.get(arn);
        if (existing == null || existing.status() != Status.ACTIVE) {
            throw ApiException.validation(
                    "Table " + table + " is not streaming to Kinesis stream " + arn);
        }
        synchronized (dests) {
            dests.put(arn, new Destination(arn, Status.DISABLED, existing.precision()));
        }
        ObjectNode out = JSON.objectNode();
        out.put("TableName", table);
        out.put("StreamArn", arn);
        out.put("DestinationStatus", Status.DISABLING.name());
        return out;
    }

    private ObjectNode describe(ObjectNode request) {
        String table = existingTable(request);
        ObjectNode out = JSON.objectNode();
        out.put("TableName", table);
        ArrayNode list = out.putArray("KinesisDataStreamDestinations");
        Map<String, Destination> dests = byTable.get(table);
        if (dests != null) {
            synchronized (dests) {
                for (Destination d : dests.values()) {
                    list.addObject()
                            .put("StreamArn", d.streamArn())
                            .put("DestinationStatus", d.status().name())
                            .put("ApproximateCreationDateTimePrecision", d.precision());
                }
            }
        }
        return out;
    }

    // ---- CommitListener --------------------------------------------------------------------

    @Override
    public void onCommit(List<ItemChange> changes) {
        for (ItemChange c : changes) {
            Map<String, Destination> dests = byTable.get(c.table());
            if (dests == null) {
                continue;
            }
            List<Destination> active = new ArrayList<>();
            synchronized (dests) {
                for (Destination d : dests.values()) {
                    if (d.status() == Status.ACTIVE) {
                        active.add(d);
                    }
                }
            }
            for (Destination d : active) {
                enqueue(new Pending(streamName(d.streamArn()), d.precision(), c));
            }
        }
    }

    private void enqueue(Pending p) {
        try {
            queue.put(p); // a full queue slows commits down rather than losing a change
            enqueued.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed.incrementAndGet();
            LOG.error("interrupted while queueing a change for {}", p.streamName());
        }
    }

    // ---- counters and lifecycle ------------------------------------------------------------

    /** Records handed to PutRecords successfully (injected duplicates included). */
    public long sentCount() {
        return sent.get();
    }

    public long duplicatedCount() {
        return duplicated.get();
    }

    public long reorderedCount() {
        return reordered.get();
    }

    /** Records given up (stream gone, closed while retrying, maxAttempts spent); logged. */
    public long failedCount() {
        return failed.get();
    }

    /** Waits until every change queued so far was sent (or failed); false on timeout. */
    public boolean flush(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long target = enqueued.get();
        while (sent.get() - duplicated.get() + failed.get() < target) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    @Override
    public void close() {
        running = false;
        sender.interrupt();
        try {
            sender.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        KinesisClient c = client;
        if (c != null) {
            c.close();
        }
    }

    // ---- sender ----------------------------------------------------------------------------

    private void sendLoop() {
        List<Pending> batch = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, options.batchSize() - 1);
                List<Rendered> rendered = new ArrayList<>(batch.size());
                for (Pending p : batch) {
                    rendered.add(
                            new Rendered(
                                    p.streamName(),
                                    ItemKeyHash.hex(p.change().keys()),
                                    toBytes(
                                            KinesisChangeRecord.render(
                                                    p.change(), region, p.precision()))));
                }
                send(inject(rendered));
            } catch (InterruptedException e) {
                if (!running) {
                    queue.drainTo(batch);
                    if (!batch.isEmpty()) {
                        LOG.warn("closing with {} unsent Kinesis records", batch.size());
                        failed.addAndGet(batch.size());
                    }
                    return;
                }
            } catch (RuntimeException e) {
                LOG.error("Kinesis forwarding failed for a batch of {}", batch.size(), e);
                failed.addAndGet(batch.size());
            } finally {
                batch.clear();
            }
        }
    }

    /** Adds duplicates and swaps neighbours with the configured probabilities (seeded). */
    private List<Rendered> inject(List<Rendered> batch) {
        List<Rendered> out = new ArrayList<>(batch.size());
        for (Rendered p : batch) {
            out.add(p);
            if (options.duplicateProbability() > 0
                    && random.nextDouble() < options.duplicateProbability()) {
                out.add(p);
                duplicated.incrementAndGet();
            }
        }
        if (options.reorderProbability() > 0) {
            for (int i = 0; i + 1 < out.size(); i++) {
                if (random.nextDouble() < options.reorderProbability()) {
                    Rendered tmp = out.get(i);
                    out.set(i, out.get(i + 1));
                    out.set(i + 1, tmp);
                    reordered.incrementAndGet();
                    i++; // a record moves at most one place per batch
                }
            }
        }
        return out;
    }

    private void send(List<Rendered> records) throws InterruptedException {
        Map<String, List<Rendered>> byStream = new LinkedHashMap<>();
        for (Rendered p : records) {
            byStream.computeIfAbsent(p.streamName(), s -> new ArrayList<>()).add(p);
        }
        for (Map.Entry<String, List<Rendered>> e : byStream.entrySet()) {
            List<Rendered> remaining = e.getValue();
            for (int start = 0;
                    start < remaining.size();
                    start += KinesisDestinationOptions.MAX_BATCH) {
                sendWithRetry(
                        e.getKey(),
                        remaining.subList(
                                start,
                                Math.min(
                                        remaining.size(),
                                        start + KinesisDestinationOptions.MAX_BATCH)));
            }
        }
    }

    /**
     * Retries only the unprocessed remainder with linear backoff (capped) until it is sent, the
     * destination closes or {@code maxAttempts} is spent; a missing stream gives up at once.
     */
    private void sendWithRetry(String streamName, List<Rendered> records)
            throws InterruptedException {
        List<Rendered> remaining = records;
        int max = options.maxAttempts();
        for (int attempt = 1;
                !remaining.isEmpty()
                        && (max == KinesisDestinationOptions.UNBOUNDED || attempt <= max);
                attempt++) {
            List<PutRecordsRequestEntry> entries = new ArrayList<>(remaining.size());
            for (Rendered p : remaining) {
                entries.add(
                        PutRecordsRequestEntry.builder()
                                .partitionKey(p.partitionKey())
                                .data(SdkBytes.fromByteArray(p.data()))
                                .build());
            }
            try {
                PutRecordsResponse response =
                        client().putRecords(b -> b.streamName(streamName).records(entries));
                List<Rendered> retry = new ArrayList<>();
                List<PutRecordsResultEntry> results = response.records();
                for (int i = 0; i < results.size(); i++) {
                    if (results.get(i).errorCode() != null) {
                        retry.add(remaining.get(i));
                    }
                }
                sent.addAndGet(remaining.size() - retry.size());
                remaining = retry;
            } catch (ResourceNotFoundException ex) {
                LOG.error("Kinesis stream {} is gone: {}", streamName, ex.toString());
                break;
            } catch (SdkException ex) {
                LOG.warn(
                        "PutRecords to {} failed (attempt {}): {}",
                        streamName,
                        attempt,
                        ex.toString());
            }
            if (!remaining.isEmpty()) {
                if (!running) {
                    break;
                }
                // an interrupt (close) ends the loop: sendLoop counts the whole batch as failed
                Thread.sleep(
                        Math.min(
                                options.retryBackoff().toMillis() * attempt,
                                KinesisDestinationOptions.MAX_BACKOFF.toMillis()));
            }
        }
        if (!remaining.isEmpty()) {
            LOG.error(
                    "giving up on {} records for Kinesis stream {}", remaining.size(), streamName);
            failed.addAndGet(remaining.size());
        }
    }

    private KinesisClient client() {
        KinesisClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = options.newClient();
                }
                c = client;
            }
        }
        return c;
    }

    // ---- validation ------------------------------------------------------------------------

    private String existingTable(ObjectNode request) {
        JsonNode t = request.get("TableName");
        if (t == null || t.asText().isEmpty()) {
            throw ApiException.validation(
                    "1 validation error detected: Value null at 'tableName' failed to satisfy"
                            + " constraint: Member must not be null");
        }
        String table = t.asText();
        TableCatalog c = catalog;
        if (c != null && c.describe(table).isEmpty()) {
            throw ApiException.resourceNotFound(
                    "Requested resource not found: Table: " + table + " not found");
        }
        return table;
    }

    private static String streamArn(ObjectNode request) {
        JsonNode a = request.get("StreamArn");
        if (a == null || !STREAM_ARN.matcher(a.asText()).matches()) {
            throw ApiException.validation(
                    "StreamArn must be a Kinesis stream ARN"
                            + " (arn:aws:kinesis:<region>:<account>:stream/<name>): "
                            + (a == null ? "null" : a.asText()));
        }
        return a.asText();
    }

    private void requireKinesisStream(String arn) {
        try {
            client().describeStreamSummary(b -> b.streamName(streamName(arn)));
        } catch (ResourceNotFoundException e) {
            throw ApiException.validation("Kinesis stream " + arn + " does not exist");
        } catch (SdkException e) {
            throw new ApiException(
                    "InternalServerError",
                    500,
                    "Cannot reach the configured Kinesis endpoint to check "
                            + arn
                            + ": "
                            + e.getMessage());
        }
    }

    static String streamName(String arn) {
        return arn.substring(arn.indexOf(":stream/") + ":stream/".length());
    }

    private static byte[] toBytes(ObjectNode record) {
        try {
            return MAPPER.writeValueAsBytes(record);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a tree of JSON nodes always serializes", e);
        }
    }
}
