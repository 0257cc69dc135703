package io.streamledger.operators.ledgercheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.change.Transport;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Ledger change records (IDX10 postings, IDX11 authorities, counters) → facts. */
class LedgerFactsTest {

    private static final String POST_PK = "TEN#t1#ACCT#A#MONTH#2025-11#BKT#00";
    private static final String POST_SK = "POST#2025-11-30T10:00:00.000Z#txn-1#0002";

    private static ChangeRecord change(
            Operation op,
            String pk,
            String sk,
            Map<String, AttributeValue> old,
            Map<String, AttributeValue> img) {
        return new ChangeRecord(
                "e1",
                op,
                "Ledger",
                Map.of("PK", new AttributeValue.S(pk), "SK", new AttributeValue.S(sk)),
                old,
                img,
                "100",
                Instant.parse("2025-11-30T10:00:01Z"),
                null,
                null,
                Transport.DYNAMODB_STREAMS);
    }

    private static Map<String, AttributeValue> postingImage(String amount) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("assetType", new AttributeValue.S("CASH"));
        m.put("asset", new AttributeValue.S("USD"));
        m.put("amount", new AttributeValue.N(amount));
        m.put("lineCount", new AttributeValue.N("2"));
        m.put("sequence", new AttributeValue.N("17"));
        return m;
    }

    @Test
    void postingInsertCarriesKeyPartsAmountLineCountAndSequence() {
        LedgerFact f =
                LedgerFacts.fromChange(
                                change(
                                        Operation.INSERT,
                                        POST_PK,
                                        POST_SK,
                                        null,
                                        postingImage("-12.50")))
                        .orElseThrow();
        assertThat(f.kind).isEqualTo(FactKind.POSTING);
        assertThat(f.txnKey()).isEqualTo("t1/txn-1");
        assertThat(f.line).isEqualTo(2);
        assertThat(f.lineCount).isEqualTo(2);
        assertThat(f.amount).isEqualTo("-12.50");
        assertThat(f.sequence).isEqualTo(17);
        assertThat(f.month).isEqualTo("2025-11");
        assertThat(f.authorityKey()).isEqualTo("t1/A/CASH/USD");
    }

    @Test
    void postingModifyKeepsBothAmounts() {
        LedgerFact f =
                LedgerFacts.fromChange(
                                change(
                                        Operation.MODIFY,
                                        POST_PK,
                                        POST_SK,
                                        postingImage("1"),
                                        postingImage("2")))
                        .orElseThrow();
        assertThat(f.oldAmount).isEqualTo("1");
        assertThat(f.amount).isEqualTo("2");
    }

    @Test
    void authorityModifyCarriesOldAndNewVersionAndPosted() {
        Map<String, AttributeValue> old = new HashMap<>();
        old.put("version", new AttributeValue.N("4"));
        old.put("posted", new AttributeValue.N("10.00"));
        Map<String, AttributeValue> img = new HashMap<>();
        img.put("version", new AttributeValue.N("5"));
        img.put("posted", new AttributeValue.N("12.00"));
        img.put("reserved", new AttributeValue.N("1.00"));
        img.put("available", new AttributeValue.N("11.00"));
        img.put("lastTxnId", new AttributeValue.S("txn-9"));
        LedgerFact f =
                LedgerFacts.fromChange(
                                change(
                                        Operation.MODIFY,
                                        "TEN#t1#ACCT#A",
                                        "AUTH#CASH#USD",
                                        old,
                                        img))
                        .orElseThrow();
        assertThat(f.kind).isEqualTo(FactKind.AUTHORITY);
        assertThat(f.oldVersion).isEqualTo(4);
        assertThat(f.version).isEqualTo(5);
        assertThat(f.oldPosted).isEqualTo("10.00");
        assertThat(f.posted).isEqualTo("12.00");
        assertThat(f.lastTxnId).isEqualTo("txn-9");
        assertThat(f.authorityKey()).isEqualTo("t1/A/CASH/USD");
    }

    @Test
    void otherItemsAreSkippedAndUnreadableLedgerItemsAreErrors() {
        assertThat(
                        LedgerFacts.fromChange(
                                change(Operation.INSERT, "TEN#t1#ACCT#A", "META", null, Map.of())))
                .isEmpty();
        Map<String, AttributeValue> bad = postingImage("1");
        bad.put("amount", new AttributeValue.S("1.0"));
        assertThatThrownBy(
                        () ->
                                LedgerFacts.fromChange(
                                        change(Operation.INSERT, POST_PK, POST_SK, null, bad)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'amount'");
    }
}
