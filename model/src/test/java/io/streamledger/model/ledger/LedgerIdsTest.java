package io.streamledger.model.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * AP10 deterministic ledger ids against the published vectors in {@code ledger/txn-id-vectors.tsv},
 * which {@code ledger/txn_id_vectors.py} computes with Python hashlib (outside Java): {@code
 * python3 txn_id_vectors.py > txn-id-vectors.tsv}.
 */
class LedgerIdsTest {

    private static List<String[]> vectors() throws IOException {
        try (InputStream in =
                LedgerIdsTest.class.getResourceAsStream("/ledger/txn-id-vectors.tsv")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#"))
                    .map(l -> l.split("\t", -1))
                    .toList();
        }
    }

    @Test
    void txnIdReproducesThePublishedVectors() throws IOException {
        List<String[]> vectors = vectors();
        assertThat(vectors).hasSizeGreaterThanOrEqualTo(8);
        for (String[] v : vectors) {
            assertThat(v).hasSize(3);
            assertThat(LedgerIds.txnId(v[0], v[1])).as(v[0] + " / " + v[1]).isEqualTo(v[2]);
        }
    }

    @Test
    void aFillsTransactionIsTheTxnIdOfItsTradeSourceId() throws IOException {
        assertThat(LedgerIds.tradeSourceId("tr-1")).isEqualTo("TRADE:tr-1");
        String published =
                vectors().stream()
                        .filter(v -> v[0].equals("t1") && v[1].equals("TRADE:tr-1"))
                        .findFirst()
                        .orElseThrow()[2];
        assertThat(LedgerIds.tradeTxnId("t1", "tr-1")).isEqualTo(published);
    }

    @Test
    void idsDependOnTenantAndSourceOnly() {
        assertThat(LedgerIds.txnId("t1", "a")).isEqualTo(LedgerIds.txnId("t1", "a"));
        assertThat(LedgerIds.txnId("t1", "a")).isNotEqualTo(LedgerIds.txnId("t2", "a"));
        assertThat(LedgerIds.txnId("t1", "a")).startsWith("t-").hasSize(34);
    }
}
