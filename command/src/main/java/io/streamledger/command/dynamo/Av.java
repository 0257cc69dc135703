package io.streamledger.command.dynamo;

import io.streamledger.aws.ledger.LedgerItemCodec;
import java.math.BigDecimal;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Small AttributeValue helpers; numbers always travel as exact decimal strings (CS10). */
public final class Av {

    private Av() {}

    public static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    public static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    public static AttributeValue n(BigDecimal v) {
        return AttributeValue.fromN(v.toPlainString());
    }

    public static AttributeValue bool(boolean v) {
        return AttributeValue.fromBool(v);
    }

    public static String str(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    public static String reqStr(Map<String, AttributeValue> item, String name) {
        String v = str(item, name);
        if (v == null) {
            throw new IllegalStateException("stored item lacks string attribute '" + name + "'");
        }
        return v;
    }

    public static BigDecimal dec(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? null : new BigDecimal(v.n());
    }

    public static long lng(Map<String, AttributeValue> item, String name, long dflt) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? dflt : Long.parseLong(v.n());
    }

    /**
     * Approximate DynamoDB item size: attribute names + values (UTF-8), per the documented rules.
     */
    public static int itemSize(Map<String, AttributeValue> item) {
        return Math.toIntExact(LedgerItemCodec.itemSize(item));
    }
}
