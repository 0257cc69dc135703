package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * A key schema of a table or index — partition key attributes and sort key attributes, each with
 * its scalar type, in key order — the physical shape of the seed's IDX01–IDX19 paths. Tables and
 * LSIs have one partition and at most one sort attribute; a GSI may have up to four of each
 * (multi-attribute keys), compared attribute by attribute, never concatenated.
 */
public record KeyDef(
        List<String> hashes, List<String> hashTypes, List<String> ranges, List<String> rangeTypes) {
    /** DynamoDB's limit on the partition (and on the sort) attributes of one GSI key. */
    static final int MAX_MULTI_ATTRIBUTES = 4;

    public KeyDef {
        hashes = List.copyOf(hashes);
        hashTypes = List.copyOf(hashTypes);
        ranges = List.copyOf(ranges);
        rangeTypes = List.copyOf(rangeTypes);
    }

    /** The (first) partition key attribute. */
    public String hash() {
        return hashes.get(0);
    }

    public String hashType() {
        return hashTypes.get(0);
    }

    /** The (first) sort key attribute, or null. */
    public @Nullable String range() {
        return ranges.isEmpty() ? null : ranges.get(0);
    }

    public @Nullable String rangeType() {
        return rangeTypes.isEmpty() ? null : rangeTypes.get(0);
    }

    /** Every key attribute: partition attributes, then sort attributes. */
    List<String> attributes() {
        List<String> all = new ArrayList<>(hashes);
        all.addAll(ranges);
        return all;
    }

    /** Parses a KeySchema array against AttributeDefinitions types. */
    static KeyDef parse(JsonNode keySchema, Map<String, String> types, String owner) {
        return parse(keySchema, types, owner, false);
    }

    /**
     * Parses a KeySchema; {@code multiAttribute} (GSIs) allows up to four HASH and four RANGE
     * elements, HASH elements first.
     */
    static KeyDef parse(
            JsonNode keySchema, Map<String, String> types, String owner, boolean multiAttribute) {
        int max = multiAttribute ? 2 * MAX_MULTI_ATTRIBUTES : 2;
        if (keySchema == null
                || !keySchema.isArray()
                || keySchema.isEmpty()
                || keySchema.size() > max) {
            throw ApiException.validation(
                    "1 validation error detected: Value null at 'keySchema' failed to satisfy"
                            + " constraint: Member must have length between 1 and "
                            + max
                            + " ("
                            + owner
                            + ")");
        }
        if (!keySchema.get(0).path("KeyType").asText().equals("HASH")) {
            throw ApiException.validation(
                    "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        List<String> hashes = new ArrayList<>();
        List<String> ranges = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (JsonNode e : keySchema) {
            String name = e.path("AttributeName").asText();
            String kt = e.path("KeyType").asText();
            if (!seen.add(name)) {
                throw ApiException.validation(
                        "Invalid KeySchema: Some index key attribute have no definition");
            }
            if (kt.equals("HASH") && ranges.isEmpty()) {
                hashes.add(name);
            } else if (kt.equals("RANGE")) {
                ranges.add(name);
            } else if (kt.equals("HASH")) {
                throw ApiException.validation(
                        "Invalid KeySchema: HASH key attributes must precede RANGE key attributes ("
                                + owner
                                + ")");
            } else {
                throw ApiException.validation(
                        "1 validation error detected: Value '"
                                + kt
                                + "' at 'keySchema.member.keyType' failed to satisfy constraint:"
                                + " Member must satisfy enum value set: [HASH, RANGE]");
            }
        }
        int perRole = multiAttribute ? MAX_MULTI_ATTRIBUTES : 1;
        if (hashes.size() > perRole || ranges.size() > perRole) {
            throw ApiException.validation(
                    multiAttribute
                            ? "One or more parameter values were invalid: A KeySchema can have at"
                                    + " most "
                                    + MAX_MULTI_ATTRIBUTES
                                    + " HASH and "
                                    + MAX_MULTI_ATTRIBUTES
                                    + " RANGE key attributes ("
                                    + owner
                                    + ")"
                            : "Invalid KeySchema: Too many "
                                    + (hashes.size() > 1 ? "hash" : "range")
                                    + " keys ("
                                    + owner
                                    + ")");
        }
        List<String> hashTypes = new ArrayList<>();
        List<String> rangeTypes = new ArrayList<>();
        for (String h : hashes) {
            hashTypes.add(types.get(h));
        }
        for (String r : ranges) {
            rangeTypes.add(types.get(r));
        }
        if (hashTypes.contains(null) || rangeTypes.contains(null)) {
            List<String> all = new ArrayList<>(hashes);
            all.addAll(ranges);
            throw ApiException.validation(
                    "One or more parameter values were invalid: Some index key attributes are not"
                            + " defined in AttributeDefinitions. Keys: "
                            + all
                            + ", AttributeDefinitions: "
                            + types.keySet());
        }
        return new KeyDef(hashes, hashTypes, ranges, rangeTypes);
    }

    ArrayNode toJson() {
        ArrayNode a = AttributeValues.JSON.arrayNode();
        for (String h : hashes) {
            ObjectNode e = a.addObject();
            e.put("AttributeName", h);
            e.put("KeyType", "HASH");
        }
        for (String r : ranges) {
            ObjectNode e = a.addObject();
            e.put("AttributeName", r);
            e.put("KeyType", "RANGE");
        }
        return a;
    }

    boolean isKeyAttribute(String name) {
        return hashes.contains(name) || ranges.contains(name);
    }
}
