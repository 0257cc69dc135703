package io.streamledger.operators.posting;

/**
 * AP10/AP11 posting-sequence buckets of one account-month, with the same limits as the command
 * service's admission path so both writers keep one counter item consistent: a bucket rolls at
 * 250,000 postings or 150,000 KiB, an account-month admits at most 2,000,000 postings.
 */
public final class PostingSequence {

    public static final long MAX_POSTINGS_PER_BUCKET = 250_000;
    public static final long MAX_BYTES_PER_BUCKET = 150_000L * 1024;
    public static final long MAX_POSTINGS_PER_MONTH = 2_000_000;
    public static final int MAX_BUCKET = 99;

    private PostingSequence() {}

    /** Counter item state; {@code version} 0 means the item does not exist yet. */
    public record Counter(
            long monthCount, int bucket, long bucketCount, long bucketBytes, long version) {
        public static final Counter EMPTY = new Counter(0, 0, 0, 0, 0);
    }

    /** Where this transaction's postings of one account go, and the counter afterwards. */
    public record Allocation(int bucket, long firstSequence, Counter next) {}

    /**
     * @throws IllegalStateException when the account-month is full (the ledger rejects, it never
     *     silently grows a bucket past its planned size)
     */
    public static Allocation allocate(String accountId, Counter c, int postings, long bytes) {
        if (c.monthCount() + postings > MAX_POSTINGS_PER_MONTH) {
            throw new IllegalStateException(
                    "account '"
                            + accountId
                            + "' reached "
                            + MAX_POSTINGS_PER_MONTH
                            + " postings this month");
        }
        int bucket = c.bucket();
        long count = c.bucketCount();
        long used = c.bucketBytes();
        if (count + postings > MAX_POSTINGS_PER_BUCKET || used + bytes > MAX_BYTES_PER_BUCKET) {
            bucket++;
            count = 0;
            used = 0;
        }
        if (bucket > MAX_BUCKET) {
            throw new IllegalStateException(
                    "account '" + accountId + "' has exhausted its posting buckets this month");
        }
        return new Allocation(
                bucket,
                c.monthCount() + 1,
                new Counter(
                        c.monthCount() + postings,
                        bucket,
                        count + postings,
                        used + bytes,
                        c.version() + 1));
    }
}
