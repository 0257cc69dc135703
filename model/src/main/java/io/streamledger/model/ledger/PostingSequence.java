package io.streamledger.model.ledger;

/**
 * AP10/AP11 posting-sequence allocation of one account-month, shared by every ledger writer: a
 * bucket rolls at 250,000 postings or 150,000 KiB, whichever comes first; an account-month admits
 * at most 2,000,000 postings, beyond which the transaction is rejected. The counter lives in one
 * per-account-month item written in the same transaction as the postings, so each sequence number
 * is allocated exactly once.
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
     * @param postings postings of this transaction on the account
     * @param bytes their item size, for the bucket byte budget
     * @throws LedgerLimitExceeded when the account-month is full
     */
    public static Allocation allocate(String accountId, Counter c, int postings, long bytes)
            throws LedgerLimitExceeded {
        return allocate(accountId, c, postings, bytes, MAX_POSTINGS_PER_MONTH);
    }

    /**
     * {@link #allocate(String, Counter, int, long)} with a lower admission limit per account-month
     * (a deployment may admit fewer than {@link #MAX_POSTINGS_PER_MONTH}, never more).
     *
     * @param monthLimit postings admitted per account-month, 1..{@link #MAX_POSTINGS_PER_MONTH}
     */
    public static Allocation allocate(
            String accountId, Counter c, int postings, long bytes, long monthLimit)
            throws LedgerLimitExceeded {
        return allocate(accountId, c, postings, bytes, monthLimit, MAX_POSTINGS_PER_BUCKET);
    }

    /**
     * {@link #allocate(String, Counter, int, long, long)} with buckets that roll at {@code
     * bucketLimit} postings (a deployment, or a test that needs several buckets, may roll sooner
     * than {@link #MAX_POSTINGS_PER_BUCKET}, never later).
     */
    public static Allocation allocate(
            String accountId,
            Counter c,
            int postings,
            long bytes,
            long monthLimit,
            long bucketLimit)
            throws LedgerLimitExceeded {
        if (bucketLimit < 1 || bucketLimit > MAX_POSTINGS_PER_BUCKET) {
            throw new IllegalArgumentException(
                    "bucketLimit must be 1.." + MAX_POSTINGS_PER_BUCKET + ", got " + bucketLimit);
        }
        if (monthLimit < 1 || monthLimit > MAX_POSTINGS_PER_MONTH) {
            throw new IllegalArgumentException(
                    "monthLimit must be 1.." + MAX_POSTINGS_PER_MONTH + ", got " + monthLimit);
        }
        if (c.monthCount() + postings > monthLimit) {
            throw new LedgerLimitExceeded(
                    LedgerLimitExceeded.Reason.LEDGER_MONTH_LIMIT,
                    accountId,
                    "account '"
                            + accountId
                            + "' has "
                            + c.monthCount()
                            + " postings this month; the admission limit is "
                            + monthLimit);
        }
        int bucket = c.bucket();
        long count = c.bucketCount();
        long used = c.bucketBytes();
        if (count + postings > bucketLimit || used + bytes > MAX_BYTES_PER_BUCKET) {
            bucket++;
            count = 0;
            used = 0;
        }
        if (bucket > MAX_BUCKET) {
            throw new LedgerLimitExceeded(
                    LedgerLimitExceeded.Reason.LEDGER_BUCKET_LIMIT,
                    accountId,
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
