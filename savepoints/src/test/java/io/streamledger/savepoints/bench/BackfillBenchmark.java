package io.streamledger.savepoints.bench;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.table.Tables;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.bootstrap.ProjectionBootstrap;
import io.streamledger.savepoints.export.ExportManifest;
import io.streamledger.savepoints.export.ExportReader;
import io.streamledger.savepoints.testing.ExportFixture;
import io.streamledger.savepoints.testing.Ledger;
import io.streamledger.savepoints.testing.LocalDdb;
import io.streamledger.savepoints.testing.StreamRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * CS09 rebuild cost (a main, not a timed test): the same final state reached two ways on the local
 * endpoint — (a) export of the Ledger's final authority items → State Processor API bootstrap
 * (savepoint + new namespace rows), and (b) replaying the full version history of every key through
 * the streaming projection job into another namespace. Prints items/s and wall times.
 *
 * <p>{@code -Dkeys=2000 -Dversions=25 -Dparallelism=2}
 */
public final class BackfillBenchmark {

    public static void main(String[] args) throws Exception {
        int keys = Integer.getInteger("keys", 2000);
        int versions = Integer.getInteger("versions", 25);
        int parallelism = Integer.getInteger("parallelism", 2);
        Path tmp = Files.createTempDirectory("backfill-bench");
        try (LocalDdb local = new LocalDdb(tmp.resolve("exports"))) {
            String ledger = local.create(Tables.LEDGER);
            local.create(Tables.PROJECTION);
            // the projection job writes overdue-gap breaks to the AP15 table
            local.create(Tables.RECONCILIATION);
            // the gates write parked-gap records (CS07) and dead letters to the DeadLetter table
            local.create(Tables.DEAD_LETTER);

            // the history: every key at versions 1..V; the ledger holds the last one
            List<AuthorityKey> ks = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                ks.add(
                        i % 2 == 0
                                ? AuthorityKey.cash("t1", "acct" + i, "USD")
                                : AuthorityKey.security("t1", "acct" + i, "SYM" + (i % 50)));
            }
            List<RawChange> history = new ArrayList<>(keys * versions);
            long seq = 0;
            for (int v = 1; v <= versions; v++) {
                for (AuthorityKey k : ks) {
                    history.add(
                            StreamRecords.modify(
                                    ExportFixture.authority(k, v, v + ".25", "0.25"),
                                    ++seq,
                                    1_000 + seq));
                }
            }
            long t0 = System.nanoTime();
            List<WriteRequest> batch = new ArrayList<>();
            for (AuthorityKey k : ks) {
                Map<String, AttributeValue> item = new HashMap<>();
                ExportFixture.authority(k, versions, versions + ".25", "0.25")
                        .forEach((n, a) -> item.put(n, sdk(a)));
                batch.add(
                        WriteRequest.builder()
                                .putRequest(PutRequest.builder().item(item).build())
                                .build());
                if (batch.size() == 25) {
                    List<WriteRequest> b = List.copyOf(batch);
                    local.ddb.batchWriteItem(r -> r.requestItems(Map.of(ledger, b)));
                    batch.clear();
                }
            }
            if (!batch.isEmpty()) {
                local.ddb.batchWriteItem(r -> r.requestItems(Map.of(ledger, batch)));
            }
            System.out.printf(
                    "setup: %d keys x %d versions = %d history events; ledger loaded in %.1f s%n",
                    keys, versions, history.size(), (System.nanoTime() - t0) / 1e9);

            // (a) rebuild from export
            long a0 = System.nanoTime();
            Path exportDir = Ledger.export(local.ddb, ledger, tmp.resolve("exports"));
            long exportNs = System.nanoTime() - a0;
            ExportManifest m = ExportReader.open(exportDir);
            ExportReader.verifyAll(m, item -> {});
            Namespace v2 = new Namespace(local.naming, "portfolio", 2);
            NamespaceTables.createPortfolioIfAbsent(local.ddb, v2);
            NamespaceTables.requireEmpty(local.ddb, v2);
            long b0 = System.nanoTime();
            ProjectionBootstrap.Result r =
                    new ProjectionBootstrap(m, v2, local.clientConfig(), 128)
                            .run(
                                    StreamExecutionEnvironment.createLocalEnvironment(parallelism),
                                    tmp.resolve("sp").toUri().toString());
            long bootstrapNs = System.nanoTime() - b0;
            long rebuildNs = System.nanoTime() - a0;

            // (b) replay the full history through the streaming job
            Namespace v3 = new Namespace(local.naming, "portfolio", 3);
            NamespaceTables.createPortfolioIfAbsent(local.ddb, v3);
            Configuration conf = v3.applyTo(local.config());
            conf.set(JobOptions.SOURCE_TABLE, ledger);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
            new ProjectionJob(
                            e -> e.fromData(history, SourceTypes.RAW_CHANGE),
                            new DynamoDbProjectionSinks(conf),
                            conf)
                    .build(env);
            long c0 = System.nanoTime();
            env.execute("replay full history");
            long replayNs = System.nanoTime() - c0;

            int rowsV2 = local.scan(v2.portfolioTable()).size();
            int rowsV3 = local.scan(v3.portfolioTable()).size();
            System.out.printf("export: %d items in %.2f s%n", m.itemCount(), exportNs / 1e9);
            System.out.printf(
                    "bootstrap: %d authorities in %.2f s = %.0f authorities/s (%d rows x2 written)%n",
                    r.authorities(),
                    bootstrapNs / 1e9,
                    r.authorities() / (bootstrapNs / 1e9),
                    rowsV2);
            System.out.printf(
                    "rebuild from export (export + check + bootstrap): %.2f s%n", rebuildNs / 1e9);
            System.out.printf(
                    "replay of full history through the projection job: %d events in %.2f s = %.0f events/s (%d rows)%n",
                    history.size(), replayNs / 1e9, history.size() / (replayNs / 1e9), rowsV3);
            System.out.printf("speed-up: %.1fx%n", (double) replayNs / rebuildNs);
        }
    }

    private static AttributeValue sdk(io.streamledger.model.change.AttributeValue a) {
        if (a instanceof io.streamledger.model.change.AttributeValue.S s) {
            return AttributeValue.fromS(s.value());
        }
        return AttributeValue.fromN(((io.streamledger.model.change.AttributeValue.N) a).text());
    }
}
