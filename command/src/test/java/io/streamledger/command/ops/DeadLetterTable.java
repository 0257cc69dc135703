package io.streamledger.command.ops;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import java.time.Instant;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The local endpoint with one DeadLetter table (CS08 keys + the sparse status GSI) under a unique
 * prefix, written through the same {@link DeadLetterItems#upsert} the jobs' dead-letter sink uses.
 */
final class DeadLetterTable implements AutoCloseable {

    final LocalEndpoint endpoint;
    final DynamoDbClient ddb;
    final String prefix;
    final String table;

    /** The Reconciliation table, where ops audit items go. */
    final String auditTable;

    DeadLetterTable(String label) {
        this.prefix = label + UUID.randomUUID().toString().substring(0, 8) + "_";
        this.endpoint = LocalEndpoint.builder().port(0).build().start();
        this.ddb = DynamoDbClientConfig.local(endpoint.endpoint().toString()).buildSyncClient();
        this.table = new TableNaming(prefix).physicalName(Tables.DEAD_LETTER);
        TableProvisioner.create(ddb, Tables.DEAD_LETTER, table);
        this.auditTable = new TableNaming(prefix).physicalName(Tables.RECONCILIATION);
        TableProvisioner.create(ddb, Tables.RECONCILIATION, auditTable);
    }

    /** Sets a record aside as a job does; a second call with the same origin is a repeat. */
    DeadLetterEntry put(
            String tenant, String job, DeadLetterReason reason, String origin, Instant seen) {
        DeadLetterEntry e =
                new DeadLetterEntry(
                        tenant,
                        job,
                        job + "-op-v1",
                        reason,
                        reason + " detail",
                        "{\"raw\":\"" + origin + "\"}",
                        "json",
                        origin,
                        "stream/shard-0/" + origin,
                        "Account#A1",
                        3,
                        seen.toEpochMilli());
        ddb.updateItem(DeadLetterItems.upsert(table, e));
        return e;
    }

    @Override
    public void close() {
        ddb.close();
        endpoint.close();
    }
}
