package io.streamledger.jobs.recon;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.recon.PositionLookup;
import io.streamledger.operators.recon.PositionView;
import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * Reads AP07 Portfolio rows (IDX07) for the positions check, asynchronously after the window: an
 * eventual read is enough, the row is compared by its source version, never trusted as authority.
 */
public final class DynamoDbPositionLookup implements PositionLookup {

    private static final long serialVersionUID = 1L;

    /** Concurrent GetItems of one subtask's async client. */
    static final int ASYNC_CONCURRENCY = 16;

    private final DynamoDbClientConfig client;
    private final String table;
    private transient DynamoDbClient ddb;
    private transient DynamoDbAsyncClient async;

    public DynamoDbPositionLookup(DynamoDbClientConfig client, String table) {
        this.client = client;
        this.table = table;
    }

    @Override
    public void open() {
        ddb = client.buildSyncClient();
        async = client.buildAsyncClient(ASYNC_CONCURRENCY);
    }

    @Override
    public void close() {
        if (ddb != null) {
            ddb.close();
        }
        if (async != null) {
            async.close();
        }
    }

    @Override
    public @Nullable PositionView read(String tenant, String account, String symbol) {
        PositionKey key = new PositionKey(tenant, account, symbol);
        return view(key, ddb.getItem(request(key)).item());
    }

    @Override
    public CompletableFuture<PositionView> readAsync(String tenant, String account, String symbol) {
        PositionKey key = new PositionKey(tenant, account, symbol);
        return async.getItem(request(key)).thenApply(r -> view(key, r.item()));
    }

    private GetItemRequest request(PositionKey key) {
        return GetItemRequest.builder()
                .tableName(table)
                .key(
                        Map.of(
                                Attr.PK,
                                AttributeValue.fromS(key.pk()),
                                Attr.SK,
                                AttributeValue.fromS(key.sk())))
                .build();
    }

    /** The positions check's view of a Portfolio row (a read or an exported item), or null. */
    public static @Nullable PositionView view(PositionKey key, Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return null;
        }
        AttributeValue v = item.get(Attr.SOURCE_VERSION);
        AttributeValue q = item.get("posted");
        if (v == null || v.n() == null || q == null || q.n() == null) {
            throw new IllegalStateException(
                    "Portfolio row " + key.pk() + " / " + key.sk() + " lacks sourceVersion/posted");
        }
        return new PositionView(Long.parseLong(v.n()), new BigDecimal(q.n()));
    }
}
