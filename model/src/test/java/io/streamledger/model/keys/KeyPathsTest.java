package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.contract.DeclaredIndex;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** KeyPaths.declared() states the seed's 19 INDEX rows, and each pattern matches its builder. */
class KeyPathsTest {

    /** id|kind|table|pk|sk|aps, copied from the seed's INDEX| rows (TASK6_MODEL block). */
    private static final List<String> SEED_INDEX_ROWS =
            List.of(
                    "IDX01|BASE|Orders|TEN#t#ORDER#id|META|AP01",
                    "IDX02|GSI1|Orders|TEN#t#ACCT#a|ORD#at#id|AP02",
                    "IDX03|GSI2|Orders|TEN#t#ACCT#a#STATUS#s|ORD#at#id|AP03",
                    "IDX04|BASE|Execution|TEN#t#ORDER#id|TRADE#at#id|AP04",
                    "IDX05|GSI1|Execution|TEN#t#ACCT#a|TRADE#at#id|AP05",
                    "IDX06|GSI2|Execution|TEN#t#SYM#symbol|TRADE#at#id|AP06",
                    "IDX07|BASE|Portfolio|TEN#t#ACCT#a|POS#symbol|AP07",
                    "IDX08|BASE|Idempotency|TEN#t#REQ#key|REQUEST|AP08",
                    "IDX09|BASE|Inbox|CONSUMER#name#V#v#SHARD#h(eventId)%13|EVENT#id|AP09",
                    "IDX10|BASE|Ledger|TEN#t#ACCT#a#MONTH#yyyy-mm#BKT#nn|POST#at#txn#line|AP10,AP11",
                    "IDX11|BASE|Ledger|TEN#t#ACCT#a|AUTH#CASH#currency or AUTH#SEC#symbol|AP12",
                    "IDX12|BASE|Projection|PROJ#name#V#v#SHARD#h(sourceKey)%7|SOURCE#key|AP13",
                    "IDX13|BASE|Reconciliation|TEN#t#RECON#date|BATCH#batchId|AP14",
                    "IDX14|BASE|Reconciliation|TEN#t#RECON#batchId|BREAK#id|AP15",
                    "IDX15|GSI1|Reconciliation|TEN#t#BREAK#status#shard|DUE#at#batch#id|AP15",
                    "IDX16|BASE|Context|OUTBOX#eventId|EVENT|AP16",
                    "IDX17|GSI3|Context|SERVICE#svc#READY#shard|DUE#at#eventId|AP16",
                    "IDX18|BASE|Orders|TEN#t#CLIENTORDER#id|UNIQUE|AP17",
                    "IDX19|GSI1|Idempotency|TEN#t#REPAIR#shard|DUE#at#key|AP18");

    private static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void declaredEqualsTheSeedRows() {
        List<String> rows = new ArrayList<>();
        for (DeclaredIndex d : KeyPaths.declared()) {
            rows.add(
                    String.join(
                            "|",
                            d.id(),
                            d.kind(),
                            d.table(),
                            d.pk(),
                            d.sk(),
                            String.join(",", d.accessPatterns())));
        }
        assertThat(rows).containsExactlyElementsOf(SEED_INDEX_ROWS);
        assertThat(KeyPaths.declared("IDX09").pk())
                .isEqualTo("CONSUMER#name#V#v#SHARD#h(eventId)%13");
    }

    /** One typed key per path, built with components chosen so each is distinguishable. */
    private static Map<String, List<ItemKey>> sampleKeys() {
        Map<String, List<ItemKey>> m = new LinkedHashMap<>();
        m.put("IDX01", List.of(new OrderKey("tv", "idv")));
        m.put("IDX02", List.of(new OrderByAccountKey("tv", "av", AT, "idv")));
        m.put("IDX03", List.of(new OrderByStatusKey("tv", "av", "sv", AT, "idv")));
        m.put("IDX04", List.of(new TradeKey("tv", "idv", AT, "idv")));
        m.put("IDX05", List.of(new TradeByAccountKey("tv", "av", AT, "idv")));
        m.put("IDX06", List.of(new TradeBySymbolKey("tv", "symbolv", AT, "idv")));
        m.put("IDX07", List.of(new PositionKey("tv", "av", "symbolv")));
        m.put("IDX08", List.of(new RequestKey("tv", "keyv")));
        m.put("IDX09", List.of(new InboxKey("namev", 1, 3, "idv")));
        m.put(
                "IDX10",
                List.of(new PostingKey("tv", "av", YearMonth.of(2026, 11), 7, AT, "txnv", 2)));
        m.put(
                "IDX11",
                List.of(
                        AuthorityKey.cash("tv", "av", "USD"),
                        AuthorityKey.security("tv", "av", "symbolv")));
        m.put("IDX12", List.of(new CheckpointKey("namev", 1, 6, "keyv")));
        m.put("IDX13", List.of(new ReconBatchKey("tv", LocalDate.of(2026, 11, 30), "batchIdv")));
        m.put("IDX14", List.of(new ReconBreakKey("tv", "batchIdv", "idv")));
        m.put("IDX15", List.of(new BreakDueKey("tv", "statusv", 2, AT, "batchv", "idv")));
        m.put("IDX16", List.of(new OutboxKey("eventIdv")));
        m.put("IDX17", List.of(new OutboxReadyKey("svcv", 12, AT, "eventIdv")));
        m.put("IDX18", List.of(new ClientOrderKey("tv", "idv")));
        m.put("IDX19", List.of(new RepairDueKey("tv", 0, AT, "keyv")));
        return m;
    }

    @Test
    void everyBuilderReproducesTheLiteralTokensOfItsDeclaredPattern() {
        Map<String, List<ItemKey>> samples = sampleKeys();
        assertThat(samples.keySet())
                .containsExactlyElementsOf(
                        KeyPaths.declared().stream().map(DeclaredIndex::id).toList());
        for (DeclaredIndex d : KeyPaths.declared()) {
            for (ItemKey key : samples.get(d.id())) {
                assertThat(key.indexId()).isEqualTo(d.id());
                assertLiteralsMatch(d.id() + " pk", d.pk(), key.pk());
                String skPattern =
                        d.sk().contains(" or ") ? alternativeFor(d.sk(), key.sk()) : d.sk();
                assertLiteralsMatch(d.id() + " sk", skPattern, key.sk());
            }
        }
    }

    /** Independent of KeyPattern: split both on '#', literal (upper-case) tokens must be equal. */
    private static void assertLiteralsMatch(String what, String pattern, String key) {
        String[] p = pattern.split("#", -1);
        String[] k = key.split("#", -1);
        assertThat(k).as(what + " segment count of " + key).hasSameSizeAs(p);
        for (int i = 0; i < p.length; i++) {
            if (p[i].matches("[A-Z]+")) {
                assertThat(k[i]).as(what + " literal " + i + " of " + key).isEqualTo(p[i]);
            } else {
                assertThat(k[i]).as(what + " placeholder " + p[i]).matches(expected(p[i]));
            }
        }
    }

    /** The value each sample key uses for a placeholder, in its key-string form. */
    private static String expected(String placeholder) {
        return switch (placeholder) {
            case "at" -> "2026-11-30T10:00:00.000Z";
            case "yyyy-mm" -> "2026-11";
            case "nn" -> "07";
            case "line" -> "0002";
            case "date" -> "2026-11-30";
            case "v" -> "1";
            case "currency" -> "USD";
            case "h(eventId)%13" -> "3";
            case "h(sourceKey)%7" -> "6";
            case "shard" -> "[0-9]+";
            default -> placeholder + "v";
        };
    }

    private static String alternativeFor(String declared, String key) {
        for (String alt : declared.split(" or ")) {
            if (key.startsWith(alt.substring(0, alt.lastIndexOf('#') + 1))) {
                return alt;
            }
        }
        throw new AssertionError("no alternative of " + declared + " fits " + key);
    }
}
