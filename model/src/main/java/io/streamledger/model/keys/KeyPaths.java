package io.streamledger.model.keys;

import io.streamledger.model.contract.DeclaredIndex;
import java.util.List;

/**
 * The code's statement of every seed key path IDX01–IDX19 (seed "Key and index design with AP
 * traceability"): the PK/SK patterns the typed keys build with, and {@link #declared()} for the
 * capacity-contract cross-check of the seed's {@code INDEX|} rows.
 */
public final class KeyPaths {
    public static final KeyPattern IDX01_PK = KeyPattern.of("TEN#t#ORDER#id");
    public static final KeyPattern IDX01_SK = KeyPattern.of("META");
    public static final KeyPattern IDX02_PK = KeyPattern.of("TEN#t#ACCT#a");
    public static final KeyPattern IDX02_SK = KeyPattern.of("ORD#at#id");
    public static final KeyPattern IDX03_PK = KeyPattern.of("TEN#t#ACCT#a#STATUS#s");
    public static final KeyPattern IDX03_SK = KeyPattern.of("ORD#at#id");
    public static final KeyPattern IDX04_PK = KeyPattern.of("TEN#t#ORDER#id");
    public static final KeyPattern IDX04_SK = KeyPattern.of("TRADE#at#id");
    public static final KeyPattern IDX05_PK = KeyPattern.of("TEN#t#ACCT#a");
    public static final KeyPattern IDX05_SK = KeyPattern.of("TRADE#at#id");
    public static final KeyPattern IDX06_PK = KeyPattern.of("TEN#t#SYM#symbol");
    public static final KeyPattern IDX06_SK = KeyPattern.of("TRADE#at#id");

    /** The seed's AP06 write-sharding fallback of IDX06 (seed "Mode and skew decisions"). */
    public static final KeyPattern IDX06_PK_SHARDED =
            KeyPattern.of("TEN#t#SYM#symbol#SHARD#h(eventId)%N");

    public static final KeyPattern IDX07_PK = KeyPattern.of("TEN#t#ACCT#a");
    public static final KeyPattern IDX07_SK = KeyPattern.of("POS#symbol");
    public static final KeyPattern IDX08_PK = KeyPattern.of("TEN#t#REQ#key");
    public static final KeyPattern IDX08_SK = KeyPattern.of("REQUEST");
    public static final KeyPattern IDX09_PK =
            KeyPattern.of("CONSUMER#name#V#v#SHARD#h(eventId)%13");
    public static final KeyPattern IDX09_SK = KeyPattern.of("EVENT#id");
    public static final KeyPattern IDX10_PK = KeyPattern.of("TEN#t#ACCT#a#MONTH#yyyy-mm#BKT#nn");
    public static final KeyPattern IDX10_SK = KeyPattern.of("POST#at#txn#line");
    public static final KeyPattern IDX11_PK = KeyPattern.of("TEN#t#ACCT#a");
    public static final KeyPattern IDX11_SK_CASH = KeyPattern.of("AUTH#CASH#currency");
    public static final KeyPattern IDX11_SK_SEC = KeyPattern.of("AUTH#SEC#symbol");
    public static final KeyPattern IDX12_PK = KeyPattern.of("PROJ#name#V#v#SHARD#h(sourceKey)%7");
    public static final KeyPattern IDX12_SK = KeyPattern.of("SOURCE#key");
    public static final KeyPattern IDX13_PK = KeyPattern.of("TEN#t#RECON#date");
    public static final KeyPattern IDX13_SK = KeyPattern.of("BATCH#batchId");
    public static final KeyPattern IDX14_PK = KeyPattern.of("TEN#t#RECON#batchId");
    public static final KeyPattern IDX14_SK = KeyPattern.of("BREAK#id");
    public static final KeyPattern IDX15_PK = KeyPattern.of("TEN#t#BREAK#status#shard");
    public static final KeyPattern IDX15_SK = KeyPattern.of("DUE#at#batch#id");
    public static final KeyPattern IDX16_PK = KeyPattern.of("OUTBOX#eventId");
    public static final KeyPattern IDX16_SK = KeyPattern.of("EVENT");
    public static final KeyPattern IDX17_PK = KeyPattern.of("SERVICE#svc#READY#shard");
    public static final KeyPattern IDX17_SK = KeyPattern.of("DUE#at#eventId");
    public static final KeyPattern IDX18_PK = KeyPattern.of("TEN#t#CLIENTORDER#id");
    public static final KeyPattern IDX18_SK = KeyPattern.of("UNIQUE");
    public static final KeyPattern IDX19_PK = KeyPattern.of("TEN#t#REPAIR#shard");
    public static final KeyPattern IDX19_SK = KeyPattern.of("DUE#at#key");

    /** Projection alias item (Projection table): names the live Portfolio namespace version. */
    public static final KeyPattern ALIAS_PK = KeyPattern.of("ALIAS#name");

    public static final KeyPattern ALIAS_SK = KeyPattern.of("ALIAS");

    /** The seed's two IDX11 alternatives, spelled as its key table writes them. */
    public static final String IDX11_SK_DECLARED =
            IDX11_SK_CASH.pattern() + " or " + IDX11_SK_SEC.pattern();

    private static final List<DeclaredIndex> DECLARED =
            List.of(
                    d("IDX01", "BASE", "Orders", IDX01_PK, IDX01_SK.pattern(), "AP01"),
                    d("IDX02", "GSI1", "Orders", IDX02_PK, IDX02_SK.pattern(), "AP02"),
                    d("IDX03", "GSI2", "Orders", IDX03_PK, IDX03_SK.pattern(), "AP03"),
                    d("IDX04", "BASE", "Execution", IDX04_PK, IDX04_SK.pattern(), "AP04"),
                    d("IDX05", "GSI1", "Execution", IDX05_PK, IDX05_SK.pattern(), "AP05"),
                    d("IDX06", "GSI2", "Execution", IDX06_PK, IDX06_SK.pattern(), "AP06"),
                    d("IDX07", "BASE", "Portfolio", IDX07_PK, IDX07_SK.pattern(), "AP07"),
                    d("IDX08", "BASE", "Idempotency", IDX08_PK, IDX08_SK.pattern(), "AP08"),
                    d("IDX09", "BASE", "Inbox", IDX09_PK, IDX09_SK.pattern(), "AP09"),
                    d("IDX10", "BASE", "Ledger", IDX10_PK, IDX10_SK.pattern(), "AP10", "AP11"),
                    d("IDX11", "BASE", "Ledger", IDX11_PK, IDX11_SK_DECLARED, "AP12"),
                    d("IDX12", "BASE", "Projection", IDX12_PK, IDX12_SK.pattern(), "AP13"),
                    d("IDX13", "BASE", "Reconciliation", IDX13_PK, IDX13_SK.pattern(), "AP14"),
                    d("IDX14", "BASE", "Reconciliation", IDX14_PK, IDX14_SK.pattern(), "AP15"),
                    d("IDX15", "GSI1", "Reconciliation", IDX15_PK, IDX15_SK.pattern(), "AP15"),
                    d("IDX16", "BASE", "Context", IDX16_PK, IDX16_SK.pattern(), "AP16"),
                    d("IDX17", "GSI3", "Context", IDX17_PK, IDX17_SK.pattern(), "AP16"),
                    d("IDX18", "BASE", "Orders", IDX18_PK, IDX18_SK.pattern(), "AP17"),
                    d("IDX19", "GSI1", "Idempotency", IDX19_PK, IDX19_SK.pattern(), "AP18"));

    /**
     * Alternative shapes of a declared path that configuration can switch on (IDX06's AP06 write
     * sharding); each must extend its contract row's PK with {@code #SHARD#} and keep the row's
     * kind, table, SK and APs.
     */
    private static final List<DeclaredIndex> FALLBACKS =
            List.of(d("IDX06", "GSI2", "Execution", IDX06_PK_SHARDED, IDX06_SK.pattern(), "AP06"));

    private KeyPaths() {}

    /** The configurable alternative shapes, checked by {@code ContractVerifier.crossCheck}. */
    public static List<DeclaredIndex> fallbacks() {
        return FALLBACKS;
    }

    /** All 19 paths in seed order, with kind, table, PK/SK patterns and AP ids. */
    public static List<DeclaredIndex> declared() {
        return DECLARED;
    }

    /** One declared path by id, e.g. {@code IDX09}. */
    public static DeclaredIndex declared(String id) {
        return DECLARED.stream()
                .filter(d -> d.id().equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no key path " + id));
    }

    private static DeclaredIndex d(
            String id, String kind, String table, KeyPattern pk, String sk, String... aps) {
        return new DeclaredIndex(id, kind, table, pk.pattern(), sk, List.of(aps));
    }
}
