package io.streamledger.sinks.posting;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.operators.posting.FillPostingRules;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the posting transaction sink needs (AP09/AP10/AP12); the posting job resolves it once
 * from its options.
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
 * @param monthLimit postings admitted per account-month (PostingSequence)
 * @param rejections where rejected and quarantined fills go (dead letters + breaks)
 * @param shardMapRefresh how often the inbox shard-map state is re-read (AP09 reshard)
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
        Duration receiptRetention,
        long monthLimit,
        PostingRejections rejections,
        Duration shardMapRefresh)
        implements Serializable {

    public PostingSettings {
        if (capacity < 1 || capacity > 10_000) {
            throw new IllegalArgumentException("capacity must be 1..10000, got " + capacity);
        }
        if (maxAttempts < 1 || maxAttempts > 1_000) {
            throw new IllegalArgumentException("maxAttempts must be 1..1000, got " + maxAttempts);
        }
        if (monthLimit < 1 || monthLimit > PostingSequence.MAX_POSTINGS_PER_MONTH) {
            throw new IllegalArgumentException(
                    "monthLimit must be 1.."
                            + PostingSequence.MAX_POSTINGS_PER_MONTH
                            + ", got "
                            + monthLimit);
        }
        Objects.requireNonNull(rejections, "rejections");
        if (shardMapRefresh.isNegative() || shardMapRefresh.isZero()) {
            throw new IllegalArgumentException("shardMapRefresh must be positive");
        }
    }
}
