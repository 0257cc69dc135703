package io.streamledger.stack.recon;

import io.streamledger.command.config.TableProvisioner;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.streams.StreamFeatures;
import io.streamledger.local.streams.StreamsOptions;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import io.streamledger.stack.it.LocalStack;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The local endpoint with DynamoDB Streams and the Ledger, Reconciliation (with its IDX15 GSI),
 * Execution, Orders and Portfolio tables under a unique prefix, for the ledger-check and
 * reconciliation ITCases.
 */
public final class ReconStack implements AutoCloseable {

    public final LocalEndpoint endpoint;
    public final DynamoDbClient ddb;
    public final String prefix;
    public final TableNaming naming;

    public ReconStack(String prefix) {
        this(prefix, null, 2);
    }

    /**
     * With exports written below {@code exportRoot} (ExportTableToPointInTime) when not null, and
     * {@code shards} stream shards per table (1: each stream delivers in write order).
     */
    public ReconStack(String prefix, java.nio.file.Path exportRoot, int shards) {
        this.prefix = prefix;
        this.naming = new TableNaming(prefix);
        this.endpoint =
                LocalEndpoint.builder()
                        .port(0)
                        .streamFeatures(
                                exports(
                                        StreamFeatures.defaults()
                                                .withStreams(
                                                        StreamsOptions.builder()
                                                                .shardsPerTable(shards)
                                                                .build()),
                                        exportRoot))
                        .build()
                        .start();
        this.ddb = JobOptions.dynamoDbClient(config()).buildSyncClient();
        for (TableSpec spec :
                List.of(Tables.LEDGER, Tables.RECONCILIATION, Tables.EXECUTION, Tables.ORDERS)) {
            create(naming.physicalName(spec), spec);
        }
        create(naming.physicalName(Tables.PORTFOLIO, 1), Tables.PORTFOLIO);
    }

    private static StreamFeatures exports(StreamFeatures f, java.nio.file.Path exportRoot) {
        return exportRoot == null ? f : f.withExportRoot(exportRoot);
    }

    public String table(TableSpec spec) {
        return naming.physicalName(spec);
    }

    public Configuration config() {
        Configuration c = LocalStack.config(endpoint, prefix);
        c.set(JobOptions.SINK_MAX_TIME_IN_BUFFER, Duration.ofMillis(200));
        return c;
    }

    public Configuration configReading(TableSpec spec) {
        Configuration c = config();
        c.set(
                JobOptions.STREAM_ARN,
                ddb.describeTable(b -> b.tableName(table(spec))).table().latestStreamArn());
        c.set(JobOptions.SOURCE_TABLE, table(spec));
        return c;
    }

    private void create(String name, TableSpec spec) {
        TableProvisioner.create(ddb, spec, name);
    }

    /**
     * Puts one trading posting line of a fill's transaction (IDX10, with its {@code role}), in the
     * shape the posting job writes: {@code line} = {account, assetType, asset, amount, role}.
     */
    public void putTradingLine(
            String tenant,
            String txnId,
            String tradeId,
            int lineNo,
            int lineCount,
            Object[] line,
            Instant at) {
        String account = (String) line[0];
        PostingKey key =
                new PostingKey(
                        tenant,
                        account,
                        YearMonth.from(at.atZone(ZoneOffset.UTC)),
                        0,
                        at,
                        txnId,
                        lineNo);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", AttributeValue.fromS(key.pk()));
        item.put("SK", AttributeValue.fromS(key.sk()));
        item.put("tenant", AttributeValue.fromS(tenant));
        item.put("txnId", AttributeValue.fromS(txnId));
        item.put("sourceId", AttributeValue.fromS("TRADE:" + tradeId));
        item.put("line", AttributeValue.fromN(Integer.toString(lineNo)));
        item.put("lineCount", AttributeValue.fromN(Integer.toString(lineCount)));
        item.put("accountId", AttributeValue.fromS(account));
        item.put("assetType", AttributeValue.fromS((String) line[1]));
        item.put("asset", AttributeValue.fromS((String) line[2]));
        item.put("amount", AttributeValue.fromN(((BigDecimal) line[3]).toPlainString()));
        item.put("role", AttributeValue.fromS((String) line[4]));
        item.put("effectiveAt", AttributeValue.fromS(at.toString()));
        item.put("recordedAt", AttributeValue.fromS(at.toString()));
        ddb.putItem(b -> b.tableName(table(Tables.LEDGER)).item(item));
    }

    public List<Map<String, AttributeValue>> scan(String table) {
        return LocalStack.scan(ddb, table);
    }

    /** Batch rows (IDX13) of the Reconciliation table by batchId. */
    public Map<String, Map<String, AttributeValue>> batches() {
        return scan(table(Tables.RECONCILIATION)).stream()
                .filter(i -> i.get("SK").s().startsWith("BATCH#"))
                .collect(java.util.stream.Collectors.toMap(i -> i.get("batchId").s(), i -> i));
    }

    /**
     * Polls until every batch of {@code ids} is CLOSED and the table holds at least as many breaks
     * as their breakCounts add up to; fails when the job ends or the timeout passes.
     */
    public void awaitClosed(
            org.apache.flink.core.execution.JobClient job, List<String> ids, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (job.getJobStatus().get().isGloballyTerminalState()) {
                job.getJobExecutionResult().get();
                throw new AssertionError("job ended early");
            }
            Map<String, Map<String, AttributeValue>> b = batches();
            if (b.keySet().containsAll(ids)
                    && ids.stream().allMatch(id -> "CLOSED".equals(b.get(id).get("state").s()))) {
                long want =
                        ids.stream()
                                .mapToLong(id -> Long.parseLong(b.get(id).get("breakCount").n()))
                                .sum();
                if (breaks().size() >= want) {
                    return;
                }
            }
            Thread.sleep(300);
        }
        throw new AssertionError("batches so far: " + new java.util.TreeMap<>(batches()).keySet());
    }

    /** Break rows (IDX14) of the Reconciliation table. */
    public List<Map<String, AttributeValue>> breaks() {
        return scan(table(Tables.RECONCILIATION)).stream()
                .filter(i -> i.get("SK").s().startsWith("BREAK#"))
                .toList();
    }

    @Override
    public void close() {
        ddb.close();
        endpoint.close();
    }
}
