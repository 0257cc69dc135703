package io.streamledger.savepoints.bootstrap;

import io.streamledger.model.projection.ViewScope;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.savepoints.export.ExportDataFile;
import io.streamledger.savepoints.export.ExportIntegrityException;
import io.streamledger.savepoints.export.ExportManifest;
import io.streamledger.savepoints.export.ExportReader;
import java.time.Instant;
import java.util.Optional;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Reads one export data file (by its index in the manifest) inside the bootstrap job and emits the
 * authority items within the namespace's view scope as gate events (CS09 step 4); the file's item
 * count is checked against the manifest, so a short or padded file fails the bootstrap instead of
 * silently shrinking it.
 */
final class ReadExportFile extends RichFlatMapFunction<Integer, GateEvent> {

    private static final long serialVersionUID = 1L;

    private final ExportManifest manifest;
    private final ViewScope scope;

    /** Accumulator names, read back from the JobExecutionResult. */
    static final String ITEMS = "items";

    static final String AUTHORITIES = "authorities";

    private transient LongCounter itemsRead;
    private transient LongCounter authorities;

    ReadExportFile(ExportManifest manifest, ViewScope scope) {
        this.manifest = manifest;
        this.scope = scope;
    }

    @Override
    public void open(OpenContext ctx) {
        itemsRead = new LongCounter();
        authorities = new LongCounter();
        getRuntimeContext().addAccumulator(ITEMS, itemsRead);
        getRuntimeContext().addAccumulator(AUTHORITIES, authorities);
    }

    @Override
    public void flatMap(Integer index, Collector<GateEvent> out) {
        ExportDataFile f = manifest.files().get(index);
        Instant at = manifest.exportTime() == null ? Instant.EPOCH : manifest.exportTime();
        String table = manifest.tableName();
        ExportReader.readFile(
                f,
                item -> {
                    itemsRead.add(1L);
                    Optional<GateEvent> e;
                    try {
                        e = ExportedAuthorities.toGateEvent(item, table, at, scope);
                    } catch (RuntimeException bad) {
                        throw new ExportIntegrityException(
                                f.s3Key()
                                        + ": authority item cannot be projected: "
                                        + bad.getMessage(),
                                bad);
                    }
                    e.ifPresent(
                            ev -> {
                                authorities.add(1L);
                                out.collect(ev);
                            });
                });
    }
}
