package io.streamledger.savepoints.bootstrap;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.jobs.projection.PortfolioRows;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.projection.ProjectionUpdate;
import io.streamledger.sinks.versioned.VersionedWrite;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The bootstrap job's second output (CS09 step 4): the Portfolio view row (IDX07) and checkpoint
 * row (IDX12) of every exported authority, built by the projection job's own {@link PortfolioRows}
 * and written with its guard attribute ({@link PortfolioRows#REVISION}) so the catch-up job's
 * version-guarded writes supersede them exactly as they would supersede their own.
 */
public final class NamespaceRowSink implements Sink<GateEvent> {

    private static final long serialVersionUID = 1L;

    static final int MAX_ROUNDS = 12;
    static final long BASE_BACKOFF_MS = 20;

    private final DynamoDbClientConfig client;
    private final Namespace namespace;

    public NamespaceRowSink(DynamoDbClientConfig client, Namespace namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** The item a bootstrapped key's row is stored as: key + attributes + guard value. */
    public static Map<String, AttributeValue> item(VersionedWrite w) {
        Map<String, AttributeValue> item = new HashMap<>(w.key());
        item.putAll(w.attributes());
        item.put(PortfolioRows.REVISION, AttributeValue.fromN(Long.toString(w.sourceVersion())));
        return item;
    }

    @Override
    @Deprecated
    public SinkWriter<GateEvent> createWriter(InitContext context) {
        return new Writer(client.buildSyncClient(), namespace.rows(), null);
    }

    @Override
    public SinkWriter<GateEvent> createWriter(WriterInitContext context) {
        return new Writer(
                client.buildSyncClient(),
                namespace.rows(),
                context.metricGroup().counter("namespaceRowsWritten"));
    }

    private static final class Writer implements SinkWriter<GateEvent> {
        private final DynamoDbClient ddb;
        private final PortfolioRows rows;
        private final BatchPutWriter view;
        private final BatchPutWriter checkpoints;
        private final Counter counter;

        Writer(DynamoDbClient ddb, PortfolioRows rows, Counter counter) {
            this.ddb = ddb;
            this.rows = rows;
            this.view = new BatchPutWriter(ddb, MAX_ROUNDS, BASE_BACKOFF_MS);
            this.checkpoints = new BatchPutWriter(ddb, MAX_ROUNDS, BASE_BACKOFF_MS);
            this.counter = counter;
        }

        @Override
        public void write(GateEvent e, Context context) {
            ProjectionUpdate u = BootstrapUpdates.update(e);
            VersionedWrite v = rows.viewRow(u);
            VersionedWrite c = rows.checkpointRow(u);
            view.put(v.tableName(), item(v));
            checkpoints.put(c.tableName(), item(c));
            if (counter != null) {
                counter.inc(2);
            }
        }

        @Override
        public void flush(boolean endOfInput) {
            view.flush();
            checkpoints.flush();
        }

        @Override
        public void close() {
            try {
                view.flush();
                checkpoints.flush();
            } finally {
                ddb.close();
            }
        }
    }
}
