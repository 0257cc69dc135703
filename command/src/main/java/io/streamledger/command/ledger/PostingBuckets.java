package io.streamledger.command.ledger;

import io.streamledger.command.api.ApiException;

/**
 * AP10/AP11 posting-sequence buckets: a bucket of an account-month rolls at 250,000 postings or
 * 150,000 KiB, whichever comes first; an account-month admits at most 2,000,000 postings, beyond
 * which the transaction is rejected, never silently grown. The counter state lives in one
 * per-account-month item written in the same transaction as the postings, so sequence numbers are
 * allocated exactly once.
 */
public final class PostingBuckets {

    public static final long MAX_POSTINGS_PER_BUCKET = 250_000;
    public static final long MAX_BYTES_PER_BUCKET = 150_000L * 1024;
    public static final long MAX_POSTINGS_PER_MONTH = 2_000_000;
    public static final int MAX_BUCKET = 99;

    private PostingBuckets() {}

    /** Counter state of one account-month; {@code version} 0 means the item does not exist. */
    public record MonthCounter(
            long monthCount, int bucket, long bucketCount, long bucketBytes, long version) {
        public static final MonthCounter EMPTY = new MonthCounter(0, 0, 0, 0, 0);
    }

    /** Where this transaction's postings of one account go, and the counter afterwards. */
    public record Allocation(int bucket, long firstSequence, MonthCounter next) {}

    public static Allocation allocate(
            String accountId, MonthCounter c, int postings, long postingBytes) {
        if (c.monthCount() + postings > MAX_POSTINGS_PER_MONTH) {
            throw ApiException.unprocessable(
                    "LEDGER_MONTH_LIMIT",
                    "account '"
                            + accountId
                            + "' has "
                            + c.monthCount()
                            + " postings this month; the admission limit is "
                            + MAX_POSTINGS_PER_MONTH);
        }
        int bucket = c.bucket();
        long count = c.bucketCount();
        long bytes = c.bucketBytes();
        if (count + postings > MAX_POSTINGS_PER_BUCKET
                || bytes + postingBytes > MAX_BYTES_PER_BUCKET) {
            bucket++;
            count = 0;
            bytes = 0;
        }
        if (bucket > MAX_BUCKET) {
            throw ApiException.unprocessable(
                    "LEDGER_BUCKET_LIMIT",
                    "account '" + accountId + "' has exhausted its posting buckets this month");
        }
        long first = c.monthCount() + 1;
        return new Allocation(
                bucket,
                first,
                new MonthCounter(
                        c.monthCount() + postings,
                        bucket,
                        count + postings,
                        bytes + postingBytes,
                        c.version() + 1));
    }
}
