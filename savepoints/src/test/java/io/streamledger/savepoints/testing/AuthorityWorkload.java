package io.streamledger.savepoints.testing;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.operators.projection.AuthorityChanges;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A deterministic stream of AP12 authority updates (version + 1, exact amount deltas) written to
 * the Ledger table, with its own oracle: the latest state per source key, computed in memory from
 * what was written, never read back from DynamoDB.
 */
public final class AuthorityWorkload {

    /** The oracle's view of one authority. */
    public record State(long version, BigDecimal posted, BigDecimal reserved) {
        public BigDecimal available() {
            return posted.subtract(reserved);
        }
    }

    private final Random random;
    private final List<AuthorityKey> keys = new ArrayList<>();
    private final Map<String, State> oracle = new TreeMap<>();
    private final Map<String, AuthorityKey> byKey = new TreeMap<>();

    public AuthorityWorkload(long seed, int accounts) {
        this.random = new Random(seed);
        for (int a = 0; a < accounts; a++) {
            addKey(AuthorityKey.cash("t1", "acct" + a, a % 3 == 0 ? "EUR" : "USD"));
            addKey(AuthorityKey.security("t1", "acct" + a, a % 2 == 0 ? "AAPL" : "MSFT"));
        }
    }

    private void addKey(AuthorityKey k) {
        keys.add(k);
        byKey.put(AuthorityChanges.sourceKey(k), k);
    }

    /** Adds a key that only appears after the export (catch-up must create its rows). */
    public void addLateKey(AuthorityKey k) {
        addKey(k);
    }

    /** Writes {@code n} updates to random keys; each is the key's next version. */
    public void write(DynamoDbClient ddb, String ledgerTable, int n) {
        for (int i = 0; i < n; i++) {
            AuthorityKey k = keys.get(random.nextInt(keys.size()));
            String sk = AuthorityChanges.sourceKey(k);
            State s = oracle.get(sk);
            BigDecimal delta = BigDecimal.valueOf(random.nextInt(100_000) - 20_000, 2);
            BigDecimal reserved = BigDecimal.valueOf(random.nextInt(500), 2);
            State next =
                    s == null
                            ? new State(1, delta.abs(), reserved)
                            : new State(s.version() + 1, s.posted().add(delta), reserved);
            Ledger.put(
                    ddb,
                    ledgerTable,
                    k,
                    next.version(),
                    next.posted().toPlainString(),
                    next.reserved().toPlainString());
            oracle.put(sk, next);
        }
    }

    public Map<String, State> oracle() {
        return oracle;
    }
}
