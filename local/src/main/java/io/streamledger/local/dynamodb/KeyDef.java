package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A key schema (partition key and optional sort key with their scalar types) of a table or index —
 * the physical shape of the seed's IDX01–IDX19 paths.
 */
public record KeyDef(
        String hash, String hashType, @Nullable String range, @Nullable String rangeType) {

    /** Parses a KeySchema array against AttributeDefinitions types. */
    static KeyDef parse(JsonNode keySchema, Map<String, String> types, String owner) {
        if (keySchema == null
                || !keySchema.isArray()
                || keySchema.isEmpty()
                || keySchema.size() > 2) {
            throw ApiException.validation(
                    "1 validation error detected: Value null at 'keySchema' failed to satisfy"
                            + " constraint: Member must have length between 1 and 2 ("
                            + owner
                            + ")");
        }
        String hash = null;
        String range = null;
        for (JsonNode e : keySchema) {
            String name = e.path("AttributeName").asText();
            String kt = e.path("KeyType").asText();
            if (kt.equals("HASH") && hash == null) {
                hash = name;
            } else if (kt.equals("RANGE") && range == null) {
                range = name;
            } else {
                throw ApiException.validation(
                        "Invalid KeySchema: Some index key attribute have no definition");
            }
        }
        if (hash == null || !keySchema.get(0).path("KeyType").asText().equals("HASH")) {
            throw ApiException.validation(
                    "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        String ht = types.get(hash);
        String rt = range == null ? null : types.get(range);
        if (ht == null || (range != null && rt == null)) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: Some index key attributes are not"
                            + " defined in AttributeDefinitions. Keys: ["
                            + hash
                            + (range == null ? "" : ", " + range)
                            + "], AttributeDefinitions: "
                            + types.keySet());
        }
        return new KeyDef(hash, ht, range, rt);
    }

    ArrayNode toJson() {
        ArrayNode a = AttributeValues.JSON.arrayNode();
        ObjectNode h = a.addObject();
        h.put("AttributeName", hash);
        h.put("KeyType", "HASH");
        if (range != null) {
            ObjectNode r = a.addObject();
            r.put("AttributeName", range);
            r.put("KeyType", "RANGE");
        }
        return a;
    }

    boolean isKeyAttribute(String name) {
        return name.equals(hash) || name.equals(range);
    }
}
