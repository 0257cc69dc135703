package io.streamledger.savepoints.proof;

import io.streamledger.model.change.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SDK item → model item, so the proof maps live Ledger items with the same code the export and the
 * stream go through (AP12 authority → AP13 source key). Numbers stay decimal strings (CS10).
 */
final class SdkItems {

    private SdkItems() {}

    static Map<String, AttributeValue> toModel(
            Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item) {
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        item.forEach((k, v) -> out.put(k, toModel(v)));
        return out;
    }

    static AttributeValue toModel(software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
        if (v.s() != null) {
            return AttributeValue.s(v.s());
        }
        if (v.n() != null) {
            return AttributeValue.n(v.n());
        }
        if (v.bool() != null) {
            return AttributeValue.bool(v.bool());
        }
        if (Boolean.TRUE.equals(v.nul())) {
            return AttributeValue.nul();
        }
        if (v.hasM()) {
            return AttributeValue.m(toModel(v.m()));
        }
        if (v.hasL()) {
            List<AttributeValue> l = new ArrayList<>();
            v.l().forEach(e -> l.add(toModel(e)));
            return AttributeValue.l(l);
        }
        // sets and binaries never occur on authority items; keep them visible, not silently lost
        return AttributeValue.s(v.toString());
    }
}
