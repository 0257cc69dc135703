package io.streamledger.model.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** AP10 bucket allocation: roll at 250,000 postings or 150,000 KiB, reject past 2,000,000/month. */
class PostingSequenceTest {

    @Test
    void firstPostingsGoToBucketZeroWithSequenceOne() throws LedgerLimitExceeded {
        var a = PostingSequence.allocate("A", PostingSequence.Counter.EMPTY, 2, 1200);
        assertThat(a.bucket()).isZero();
        assertThat(a.firstSequence()).isEqualTo(1);
        assertThat(a.next().monthCount()).isEqualTo(2);
        assertThat(a.next().version()).isEqualTo(1);
    }

    @Test
    void rollsAtThePostingCountCeiling() throws LedgerLimitExceeded {
        var c = new PostingSequence.Counter(249_999, 0, 249_999, 1000, 7);
        var a = PostingSequence.allocate("A", c, 2, 1200);
        assertThat(a.bucket()).isEqualTo(1);
        assertThat(a.next().bucketCount()).isEqualTo(2);
        assertThat(a.firstSequence()).isEqualTo(250_000);
        var exact =
                PostingSequence.allocate(
                        "A", new PostingSequence.Counter(249_998, 0, 249_998, 0, 1), 2, 1);
        assertThat(exact.bucket()).isZero();
    }

    @Test
    void rollsAtTheByteCeilingFirstWhenPostingsAreLarge() throws LedgerLimitExceeded {
        var c =
                new PostingSequence.Counter(
                        10, 3, 10, PostingSequence.MAX_BYTES_PER_BUCKET - 100, 1);
        assertThat(PostingSequence.allocate("A", c, 1, 101).bucket()).isEqualTo(4);
        assertThat(PostingSequence.allocate("A", c, 1, 100).bucket()).isEqualTo(3);
    }

    @Test
    void rejectsPastTheMonthlyAdmissionLimit() throws LedgerLimitExceeded {
        var c = new PostingSequence.Counter(1_999_999, 7, 249_999, 0, 1);
        assertThat(PostingSequence.allocate("A", c, 1, 600).next().monthCount())
                .isEqualTo(2_000_000);
        assertThatThrownBy(() -> PostingSequence.allocate("A", c, 2, 600))
                .isInstanceOf(LedgerLimitExceeded.class)
                .satisfies(
                        e ->
                                assertThat(((LedgerLimitExceeded) e).reason())
                                        .isEqualTo(LedgerLimitExceeded.Reason.LEDGER_MONTH_LIMIT))
                .hasMessage(
                        "account 'A' has 1999999 postings this month; the admission limit is"
                                + " 2000000");
    }

    @Test
    void rejectsWhenEveryBucketIsFull() {
        var c =
                new PostingSequence.Counter(
                        10,
                        PostingSequence.MAX_BUCKET,
                        PostingSequence.MAX_POSTINGS_PER_BUCKET,
                        0,
                        1);
        assertThatThrownBy(() -> PostingSequence.allocate("A", c, 1, 100))
                .isInstanceOf(LedgerLimitExceeded.class)
                .satisfies(
                        e ->
                                assertThat(((LedgerLimitExceeded) e).reason())
                                        .isEqualTo(LedgerLimitExceeded.Reason.LEDGER_BUCKET_LIMIT));
    }
}
