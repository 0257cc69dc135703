package io.streamledger.aws.items;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Converts between the model's SDK-free attribute values (outbox envelope AP16, change-record
 * images, export items) and the AWS SDK's, keeping numbers as their exact text (CS10).
 */
public final class ModelAv {

    private ModelAv() {}

    public static Map<String, AttributeValue> toSdk(
            Map<String, io.streamledger.model.change.AttributeValue> item) {
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        item.forEach((k, v) -> out.put(k, toSdk(v)));
        return out;
    }

    public static AttributeValue toSdk(io.streamledger.model.change.AttributeValue v) {
        if (v instanceof io.streamledger.model.change.AttributeValue.S s) {
            return AttributeValue.fromS(s.value());
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.N n) {
            return AttributeValue.fromN(n.text());
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.Bool b) {
            return AttributeValue.fromBool(b.value());
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.Null) {
            return AttributeValue.fromNul(true);
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.B b) {
            return AttributeValue.fromB(SdkBytes.fromByteArray(b.value()));
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.M m) {
            return AttributeValue.fromM(toSdk(m.values()));
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.L l) {
            List<AttributeValue> out = new ArrayList<>();
            l.values().forEach(e -> out.add(toSdk(e)));
            return AttributeValue.fromL(out);
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.SS ss) {
            return AttributeValue.fromSs(ss.values());
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.NS ns) {
            return AttributeValue.fromNs(ns.values());
        }
        if (v instanceof io.streamledger.model.change.AttributeValue.BS bs) {
            List<SdkBytes> out = new ArrayList<>();
            bs.values().forEach(b -> out.add(SdkBytes.fromByteArray(b.value())));
            return AttributeValue.fromBs(out);
        }
        throw new IllegalArgumentException("unsupported attribute type " + v.type());
    }

    public static Map<String, io.streamledger.model.change.AttributeValue> fromSdk(
            Map<String, AttributeValue> item) {
        Map<String, io.streamledger.model.change.AttributeValue> out = new LinkedHashMap<>();
        item.forEach((k, v) -> out.put(k, fromSdk(v)));
        return out;
    }

    public static io.streamledger.model.change.AttributeValue fromSdk(AttributeValue v) {
        if (v.s() != null) {
            return io.streamledger.model.change.AttributeValue.s(v.s());
        }
        if (v.n() != null) {
            return io.streamledger.model.change.AttributeValue.n(v.n());
        }
        if (v.bool() != null) {
            return io.streamledger.model.change.AttributeValue.bool(v.bool());
        }
        if (Boolean.TRUE.equals(v.nul())) {
            return io.streamledger.model.change.AttributeValue.nul();
        }
        if (v.hasM()) {
            return io.streamledger.model.change.AttributeValue.m(fromSdk(v.m()));
        }
        if (v.hasL()) {
            List<io.streamledger.model.change.AttributeValue> out = new ArrayList<>();
            v.l().forEach(e -> out.add(fromSdk(e)));
            return io.streamledger.model.change.AttributeValue.l(out);
        }
        if (v.b() != null) {
            return new io.streamledger.model.change.AttributeValue.B(v.b().asByteArray());
        }
        if (v.hasSs()) {
            return new io.streamledger.model.change.AttributeValue.SS(v.ss());
        }
        if (v.hasNs()) {
            return new io.streamledger.model.change.AttributeValue.NS(v.ns());
        }
        if (v.hasBs()) {
            List<io.streamledger.model.change.AttributeValue.B> out = new ArrayList<>();
            v.bs().forEach(
                            b ->
                                    out.add(
                                            new io.streamledger.model.change.AttributeValue.B(
                                                    b.asByteArray())));
            return new io.streamledger.model.change.AttributeValue.BS(out);
        }
        throw new IllegalArgumentException("unsupported attribute value " + v);
    }
}
