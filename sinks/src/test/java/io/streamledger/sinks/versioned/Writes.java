package io.streamledger.sinks.versioned;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Small builders for test writes on the seed's Portfolio shape (IDX07: TEN#t#ACCT#a / POS#s). */
final class Writes {
    static final String TABLE = "Portfolio_v1";

    private Writes() {}

    static VersionedWrite position(String account, String symbol, long version) {
        return VersionedWrite.of(
                TABLE,
                Map.of(
                        "PK", AttributeValue.fromS("TEN#t1#ACCT#" + account),
                        "SK", AttributeValue.fromS("POS#" + symbol)),
                Map.of("quantity", AttributeValue.fromN(Long.toString(version * 10))),
                version);
    }

    static String id(String account, String symbol) {
        return "TEN#t1#ACCT#" + account + "|POS#" + symbol;
    }
}
