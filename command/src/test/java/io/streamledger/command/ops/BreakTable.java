package io.streamledger.command.ops;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.BreakItems;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingRow;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The local endpoint with one Reconciliation table (IDX14 + the IDX15 GSI) and one Ledger table
 * under a unique prefix, seeded with break items written by the shared {@link BreakItems} codec as
 * the break sink writes them (version 1, OPEN) and with ledger items by {@link LedgerItemCodec}.
 */
final class BreakTable implements AutoCloseable {

    final LocalEndpoint endpoint;
    final DynamoDbClient ddb;
    final String prefix;
    final String table;
    final String ledgerTable;

    BreakTable(String label) {
        this.prefix = label + UUID.randomUUID().toString().substring(0, 8) + "_";
        this.endpoint = LocalEndpoint.builder().port(0).build().start();
        this.ddb = DynamoDbClientConfig.local(endpoint.endpoint().toString()).buildSyncClient();
        this.table = new TableNaming(prefix).physicalName(Tables.RECONCILIATION);
        TableProvisioner.create(ddb, Tables.RECONCILIATION, table);
        this.ledgerTable = new TableNaming(prefix).physicalName(Tables.LEDGER);
        TableProvisioner.create(ddb, Tables.LEDGER, ledgerTable);
    }

    /** One posting line of {@code txnId} on a cash account, stored by the shared codec. */
    PostingKey posting(String tenant, String account, String txnId, String amount, Instant at) {
        PostingKey k = new PostingKey(tenant, account, LedgerSchema.month(at), 0, at, txnId, 1);
        PostingRow row =
                new PostingRow(
                        k,
                        "src-" + txnId,
                        2,
                        AuthorityKey.Kind.CASH,
                        "USD",
                        new BigDecimal(amount),
                        1,
                        at,
                        null,
                        null,
                        null);
        ddb.putItem(r -> r.tableName(ledgerTable).item(LedgerItemCodec.posting(row)));
        return k;
    }

    /** The AP12 cash authority of {@code account} at {@code version}, as the ledger stores it. */
    void authority(
            String tenant,
            String account,
            long version,
            String posted,
            String reserved,
            String available) {
        ddb.putItem(
                r ->
                        r.tableName(ledgerTable)
                                .item(
                                        LedgerItemCodec.authority(
                                                AuthorityKey.cash(tenant, account, "USD"),
                                                new BigDecimal(posted),
                                                new BigDecimal(reserved),
                                                BigDecimal.ZERO,
                                                new BigDecimal(available),
                                                version,
                                                Map.of(),
                                                "t-last",
                                                Instant.parse("2026-11-30T08:00:00Z"))));
    }

    /** Ops audit items (append-only) of the table; the scan is bounded to 20 pages. */
    List<OpsAuditItems.Entry> audits() {
        return audits(ddb, table);
    }

    /** Ops audit items of {@code table}; the scan is bounded to 20 pages. */
    static List<OpsAuditItems.Entry> audits(DynamoDbClient ddb, String table) {
        List<OpsAuditItems.Entry> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        for (int page = 0; page < 20; page++) {
            Map<String, AttributeValue> from = start;
            ScanResponse r = ddb.scan(b -> b.tableName(table).exclusiveStartKey(from));
            r.items().stream()
                    .filter(i -> OpsAuditItems.ENTITY.equals(Av.str(i, Attr.ENTITY_TYPE)))
                    .map(OpsAuditItems::view)
                    .forEach(out::add);
            if (!r.hasLastEvaluatedKey() || r.lastEvaluatedKey().isEmpty()) {
                break;
            }
            start = r.lastEvaluatedKey();
        }
        return out;
    }

    /**
     * Stores a detected break as the sink does: owner finance-ops, due one hour after detection.
     */
    void put(
            String tenant,
            String batch,
            String id,
            String reason,
            String origin,
            Instant detected,
            String subject,
            String evidence) {
        BreakItems.NewBreak b =
                new BreakItems.NewBreak(
                        tenant,
                        batch,
                        id,
                        reason,
                        origin,
                        subject,
                        "finance-ops",
                        detected,
                        detected.plus(Duration.ofHours(1)),
                        evidence);
        Map<String, AttributeValue> item = new HashMap<>(BreakItems.key(tenant, batch, id));
        item.putAll(BreakItems.attributes(b));
        item.put(Attr.VERSION, AttributeValue.fromN("1"));
        ddb.putItem(r -> r.tableName(table).item(item));
    }

    /** Break rows (IDX14) of the table; the scan is bounded to 20 pages. */
    List<Map<String, AttributeValue>> breaks() {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        for (int page = 0; page < 20; page++) {
            Map<String, AttributeValue> from = start;
            ScanResponse r = ddb.scan(b -> b.tableName(table).exclusiveStartKey(from));
            r.items().stream()
                    .filter(i -> i.get(Attr.SK).s().startsWith("BREAK#"))
                    .forEach(out::add);
            if (!r.hasLastEvaluatedKey() || r.lastEvaluatedKey().isEmpty()) {
                break;
            }
            start = r.lastEvaluatedKey();
        }
        return out;
    }

    @Override
    public void close() {
        ddb.close();
        endpoint.close();
    }
}
