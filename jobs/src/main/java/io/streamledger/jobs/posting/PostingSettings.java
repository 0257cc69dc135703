package io.streamledger.jobs.posting;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.posting.FeeSplit;
import io.streamledger.operators.posting.FillPostingRules;
import io.streamledger.operators.posting.HouseAccounts;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Everything the posting operator needs, resolved once from {@link JobOptions} (AP09/AP10/AP12).
 *
 * @param client DynamoDB client recipe
 * @param ledgerTable physical Ledger table (postings, counters, authority)
 * @param inboxTable physical Inbox table (receipts)
 * @param consumer consumer name of the IDX09 receipts
 * @param rules fill → balanced transaction
 * @param capacity fills in flight per subtask
 * @param timeout per-fill bound, retries included
 * @param maxAttempts transaction attempts per fill
 * @param backoffBase first retry delay
 * @param backoffMax longest retry delay
 * @param receiptRetention receipt TTL (cleanup only)
 */
public record PostingSettings(
        DynamoDbClientConfig client,
        String ledgerTable,
        String inboxTable,
        String consumer,
        FillPostingRules rules,
        int capacity,
        Duration timeout,
        int maxAttempts,
        Duration backoffBase,
        Duration backoffMax,
        Duration receiptRetention)
        implements Serializable {

    public PostingSettings {
        if (capacity < 1 || capacity > 10_000) {
            throw new IllegalArgumentException("capacity must be 1..10000, got " + capacity);
        }
        if (maxAttempts < 1 || maxAttempts > 1_000) {
            throw new IllegalArgumentException("maxAttempts must be 1..1000, got " + maxAttempts);
        }
    }

    public static PostingSettings from(ReadableConfig conf) {
        TableNaming naming = new TableNaming(conf.get(JobOptions.TABLE_PREFIX));
        return new PostingSettings(
                JobOptions.dynamoDbClient(conf),
                naming.physicalName(Tables.LEDGER),
                naming.physicalName(Tables.INBOX),
                conf.get(JobOptions.POSTING_CONSUMER),
                new FillPostingRules(
                        FeeSplit.DEFAULT,
                        new HouseAccounts(conf.get(JobOptions.POSTING_HOUSE_SHARDS))),
                conf.get(JobOptions.POSTING_CAPACITY),
                conf.get(JobOptions.POSTING_TIMEOUT),
                conf.get(JobOptions.POSTING_MAX_ATTEMPTS),
                conf.get(JobOptions.POSTING_BACKOFF_BASE),
                conf.get(JobOptions.POSTING_BACKOFF_MAX),
                conf.get(JobOptions.POSTING_RECEIPT_RETENTION));
    }
}
