package io.streamledger.command.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.command.api.ApiException;
import org.junit.jupiter.api.Test;

/** AP10 bucket allocation: roll at 250,000 postings or 150,000 KiB, reject past 2,000,000/month. */
class PostingBucketsTest {

    @Test
    void firstPostingsGoToBucketZeroWithSequenceOne() {
        var a = PostingBuckets.allocate("A", PostingBuckets.MonthCounter.EMPTY, 2, 1200);
        assertThat(a.bucket()).isZero();
        assertThat(a.firstSequence()).isEqualTo(1);
        assertThat(a.next().monthCount()).isEqualTo(2);
        assertThat(a.next().version()).isEqualTo(1);
    }

    @Test
    void rollsAtThePostingCountCeiling() {
        var c = new PostingBuckets.MonthCounter(249_999, 0, 249_999, 1000, 7);
        var a = PostingBuckets.allocate("A", c, 2, 1200);
        assertThat(a.bucket()).isEqualTo(1);
        assertThat(a.next().bucketCount()).isEqualTo(2);
        assertThat(a.firstSequence()).isEqualTo(250_000);
        var exact =
                PostingBuckets.allocate(
                        "A", new PostingBuckets.MonthCounter(249_998, 0, 249_998, 0, 1), 2, 1);
        assertThat(exact.bucket()).isZero();
    }

    @Test
    void rollsAtTheByteCeilingFirstWhenPostingsAreLarge() {
        var c =
                new PostingBuckets.MonthCounter(
                        10, 3, 10, PostingBuckets.MAX_BYTES_PER_BUCKET - 100, 1);
        assertThat(PostingBuckets.allocate("A", c, 1, 101).bucket()).isEqualTo(4);
        assertThat(PostingBuckets.allocate("A", c, 1, 100).bucket()).isEqualTo(3);
    }

    @Test
    void rejectsPastTheMonthlyAdmissionLimit() {
        var c = new PostingBuckets.MonthCounter(1_999_999, 7, 249_999, 0, 1);
        assertThat(PostingBuckets.allocate("A", c, 1, 600).next().monthCount())
                .isEqualTo(2_000_000);
        assertThatThrownBy(() -> PostingBuckets.allocate("A", c, 2, 600))
                .isInstanceOf(ApiException.class)
                .satisfies(
                        e -> assertThat(((ApiException) e).code()).isEqualTo("LEDGER_MONTH_LIMIT"));
    }
}
