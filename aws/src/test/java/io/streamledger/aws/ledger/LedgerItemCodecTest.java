package io.streamledger.aws.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingRow;
import io.streamledger.model.ledger.PostingSequence;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The Ledger items every writer stores (AP10/AP11/AP12), named by the one schema. */
class LedgerItemCodecTest {

    private static final Instant AT = Instant.parse("2026-11-30T10:00:00.123Z");

    private static PostingRow row(PostingRow.FillLine fill, String reversalOf) {
        return new PostingRow(
                new PostingKey("t1", "a1", YearMonth.of(2026, 11), 0, AT, "t-abc", 2),
                "TRADE:tr-1",
                4,
                AuthorityKey.Kind.CASH,
                "USD",
                new BigDecimal("-100.50"),
                0,
                AT,
                reversalOf,
                null,
                fill);
    }

    @Test
    void anAdmittedPostingCarriesTheSharedAttributes() {
        Map<String, AttributeValue> item =
                LedgerItemCodec.posting(row(null, "t-orig").placed(3, 17));
        assertThat(item.get("PK").s()).isEqualTo("TEN#t1#ACCT#a1#MONTH#2026-11#BKT#03");
        assertThat(item.get("SK").s()).isEqualTo("POST#2026-11-30T10:00:00.123Z#t-abc#0002");
        assertThat(item.get(LedgerSchema.TENANT).s()).isEqualTo("t1");
        assertThat(item.get(LedgerSchema.TXN_ID).s()).isEqualTo("t-abc");
        assertThat(item.get(LedgerSchema.SOURCE_ID).s()).isEqualTo("TRADE:tr-1");
        assertThat(item.get(LedgerSchema.LINE).n()).isEqualTo("2");
        assertThat(item.get(LedgerSchema.LINE_COUNT).n()).isEqualTo("4");
        assertThat(item.get(LedgerSchema.ACCOUNT).s()).isEqualTo("a1");
        assertThat(item.get(LedgerSchema.ASSET_TYPE).s()).isEqualTo("CASH");
        assertThat(item.get(LedgerSchema.ASSET).s()).isEqualTo("USD");
        assertThat(item.get(LedgerSchema.AMOUNT).n()).isEqualTo("-100.50");
        assertThat(item.get(LedgerSchema.SEQUENCE).n()).isEqualTo("17");
        assertThat(item.get(LedgerSchema.RECORDED_AT).s()).isEqualTo(AT.toString());
        assertThat(item.get(LedgerSchema.REVERSAL_OF).s()).isEqualTo("t-orig");
        assertThat(item).doesNotContainKeys(LedgerSchema.ROLE, LedgerSchema.DESCRIPTION);
    }

    @Test
    void aFillsConsiderationLineAddsRoleEventAndRoundingEvidence() {
        var rounding =
                new PostingRow.Rounding(
                        new BigDecimal("100.505"), new BigDecimal("0.005"), RoundingMode.HALF_EVEN);
        Map<String, AttributeValue> item =
                LedgerItemCodec.posting(
                        row(new PostingRow.FillLine(AT, "CONSIDERATION", "ev-1", rounding), null));
        assertThat(item.get(LedgerSchema.ROLE).s()).isEqualTo("CONSIDERATION");
        assertThat(item.get(LedgerSchema.EVENT_ID).s()).isEqualTo("ev-1");
        assertThat(item.get(LedgerSchema.EFFECTIVE_AT).s()).isEqualTo(AT.toString());
        assertThat(item.get(LedgerSchema.GROSS_EXACT).n()).isEqualTo("100.505");
        assertThat(item.get(LedgerSchema.ROUNDING_RESIDUAL).n()).isEqualTo("0.005");
        assertThat(item.get(LedgerSchema.ROUNDING_MODE).s()).isEqualTo("HALF_EVEN");
        assertThat(item).doesNotContainKey(LedgerSchema.REVERSAL_OF);
    }

    @Test
    void counterRoundTripsAndIsCompareAndSetOnItsVersion() {
        var key = new MonthCounterKey("t1", "a1", YearMonth.of(2026, 11));
        var next = new PostingSequence.Counter(12, 1, 2, 900, 5);
        var first =
                LedgerItemCodec.counterPut("Ledger", key, PostingSequence.Counter.EMPTY, next, AT);
        assertThat(first.put().conditionExpression()).isEqualTo("attribute_not_exists(#pk)");
        assertThat(first.put().item().get("SK").s()).isEqualTo("SEQ#MONTH#2026-11");
        assertThat(LedgerItemCodec.counterFrom(first.put().item())).isEqualTo(next);
        var later = LedgerItemCodec.counterPut("Ledger", key, next, next, AT);
        assertThat(later.put().conditionExpression()).isEqualTo("#v = :v");
        assertThat(later.put().expressionAttributeValues().get(":v").n()).isEqualTo("5");
        assertThat(LedgerItemCodec.counterFrom(null)).isEqualTo(PostingSequence.Counter.EMPTY);
    }
}
