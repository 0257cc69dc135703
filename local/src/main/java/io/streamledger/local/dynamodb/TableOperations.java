package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.StreamSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Pattern;

/**
 * CreateTable, DeleteTable, DescribeTable, ListTables, UpdateTable (GSI creation, stream
 * specification) and TTL settings — the table shapes of the seed's IDX01–IDX19 and CS07 change
 * streams.
 */
final class TableOperations {
    private static final Pattern TABLE_NAME = Pattern.compile("[a-zA-Z0-9_.-]{3,255}");

    private final DynamoDbEngine engine;

    TableOperations(DynamoDbEngine engine) {
        this.engine = engine;
    }

    ObjectNode create(ObjectNode request) {
        engine.commitLock.lock();
        try {
            Table t = createLocked(request);
            return wrap("TableDescription", description(t));
        } finally {
            engine.commitLock.unlock();
        }
    }

    private Table createLocked(ObjectNode request) {
        String name = request.path("TableName").asText("");
        if (!TABLE_NAME.matcher(name).matches()) {
            throw ApiException.validation(
                    "1 validation error detected: Value '"
                            + name
                            + "' at 'tableName' failed to satisfy constraint: Member must satisfy"
                            + " regular expression pattern: [a-zA-Z0-9_.-]+ and have length between"
                            + " 3 and 255");
        }
        if (engine.tables.containsKey(name)) {
            throw new ApiException("ResourceInUseException", 400, "Table already exists: " + name);
        }
        Map<String, String> types = attributeTypes(request.get("AttributeDefinitions"));
        KeyDef key = KeyDef.parse(request.get("KeySchema"), types, name);
        List<IndexDef> gsis = new ArrayList<>();
        for (JsonNode g : request.path("GlobalSecondaryIndexes")) {
            gsis.add(IndexDef.parse(g, types, true));
        }
        checkGsiCount(gsis.size());
        List<IndexDef> lsis = new ArrayList<>();
        for (JsonNode l : request.path("LocalSecondaryIndexes")) {
            IndexDef lsi = IndexDef.parse(l, types, false);
            if (!lsi.key().hash().equals(key.hash()) || lsi.key().range() == null) {
                throw ApiException.validation(
                        "One or more parameter values were invalid: Index KeySchema does not have"
                                + " the same leading hash key as table KeySchema for index: "
                                + lsi.name()
                                + ". index hash key: "
                                + lsi.key().hash()
                                + ", table hash key: "
                                + key.hash());
            }
            if (key.range() == null) {
                throw ApiException.validation(
                        "One or more parameter values were invalid: Table KeySchema does not have a"
                                + " range key, which is required when specifying a"
                                + " LocalSecondaryIndex");
            }
            lsis.add(lsi);
        }
        List<IndexDef> all = new ArrayList<>(gsis);
        all.addAll(lsis);
        IndexDef.checkUnique(all);
        Set<String> used = new HashSet<>(key.attributes());
        for (IndexDef i : all) {
            used.addAll(i.key().attributes());
        }
        if (!used.equals(types.keySet())) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: Some AttributeDefinitions are not"
                            + " used. AttributeDefinitions: "
                            + types.keySet()
                            + ", keys used: "
                            + used);
        }
        String billing = request.path("BillingMode").asText("PROVISIONED");
        if (billing.equals("PROVISIONED") && !request.has("ProvisionedThroughput")) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: ReadCapacityUnits and"
                            + " WriteCapacityUnits must both be specified when BillingMode is"
                            + " PROVISIONED");
        }
        Instant created =
                request.has("_createdAt")
                        ? Instant.ofEpochMilli(request.get("_createdAt").asLong())
                        : engine.clock.instant();
        String tableId =
                request.has("_tableId")
                        ? request.get("_tableId").asText()
                        : UUID.randomUUID().toString();
        Table t =
                new Table(
                        name,
                        "arn:aws:dynamodb:"
                                + DynamoDbEngine.REGION
                                + ":"
                                + DynamoDbEngine.ACCOUNT
                                + ":table/"
                                + name,
                        tableId,
                        created,
                        key,
                        types,
                        gsis,
                        lsis);
        t.billingMode = billing.equals("PAY_PER_REQUEST") ? "PAY_PER_REQUEST" : "PROVISIONED";
        t.provisionedThroughput = request.path("ProvisionedThroughput");
        t.deletionProtection = request.path("DeletionProtectionEnabled").asBoolean(false);
        JsonNode spec = request.get("StreamSpecification");
        engine.tables.put(name, t);
        if (spec != null && spec.path("StreamEnabled").asBoolean(false)) {
            enableStream(t, spec);
        }
        ObjectNode logged = request.deepCopy();
        logged.put("_createdAt", created.toEpochMilli());
        logged.put("_tableId", tableId);
        engine.logDefinition("CreateTable", logged);
        return t;
    }

    private static void checkGsiCount(int count) {
        if (count > 20) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds"
                            + " the per-table limit of 20");
        }
    }

    /**
     * DynamoDB runs one online index creation or deletion per table at a time: a second one in the
     * same request or while a backfill runs is refused, except deleting the backfilling index.
     */
    private static void checkOneOnlineIndexChange(Table t, JsonNode updates) {
        int changes = 0;
        for (JsonNode u : updates) {
            if (u.has("Create") || u.has("Delete")) {
                changes++;
                boolean dropsBackfilling =
                        u.has("Delete")
                                && t.backfilling.contains(
                                        u.get("Delete").path("IndexName").asText());
                if (!t.backfilling.isEmpty() && !dropsBackfilling) {
                    changes++;
                }
            }
        }
        if (changes > 1) {
            throw new ApiException(
                    "LimitExceededException",
                    400,
                    "Subscriber limit exceeded: Only 1 online index can be created or deleted"
                            + " simultaneously per table");
        }
    }

    private void enableStream(Table t, JsonNode spec) {
        String viewType = spec.path("StreamViewType").asText("");
        if (!List.of("KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES")
                .contains(viewType)) {
            throw ApiException.validation(
                    "1 validation error detected: Value '"
                            + viewType
                            + "' at 'streamSpecification.streamViewType' failed to satisfy"
                            + " constraint: Member must satisfy enum value set: [NEW_IMAGE,"
                            + " OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]");
        }
        t.streamEnabled = true;
        t.streamViewType = viewType;
        if (engine.streamSettings != null) {
            engine.streamSettings.enable(t.name, viewType);
        }
    }

    private static Map<String, String> attributeTypes(JsonNode defs) {
        Map<String, String> types = new LinkedHashMap<>();
        if (defs == null || !defs.isArray()) {
            throw ApiException.validation(
                    "1 validation error detected: Value null at 'attributeDefinitions' failed to"
                            + " satisfy constraint: Member must not be null");
        }
        for (JsonNode d : defs) {
            String type = d.path("AttributeType").asText();
            if (!List.of("S", "N", "B").contains(type)) {
                throw ApiException.validation(
                        "1 validation error detected: Value '"
                                + type
                                + "' at 'attributeDefinitions.member.attributeType' failed to"
                                + " satisfy constraint: Member must satisfy enum value set: [B, N,"
                                + " S]");
            }
            if (types.put(d.path("AttributeName").asText(), type) != null) {
                throw ApiException.validation(
                        "Cannot have two attributes with the same name. Attribute name: "
                                + d.path("AttributeName").asText());
            }
        }
        return types;
    }

    ObjectNode delete(ObjectNode request) {
        engine.commitLock.lock();
        try {
            Table t = engine.table(request);
            if (t.deletionProtection) {
                throw ApiException.validation(
                        "Resource cannot be deleted as it is currently protected against deletion."
                                + " Disable deletion protection first.");
            }
            ObjectNode d = description(t);
            d.put("TableStatus", "DELETING");
            for (JsonNode g : d.path("GlobalSecondaryIndexes")) {
                ((ObjectNode) g).put("IndexStatus", "DELETING");
            }
            engine.tables.remove(t.name);
            if (engine.streamSettings != null) {
                engine.streamSettings.tableDeleted(t.name);
            }
            engine.logDefinition("DeleteTable", request.deepCopy());
            return wrap("TableDescription", d);
        } finally {
            engine.commitLock.unlock();
        }
    }

    ObjectNode describe(ObjectNode request) {
        String name = request.path("TableName").asText();
        Table t = engine.tables.get(name);
        if (t == null) {
            throw ApiException.resourceNotFound(
                    "Requested resource not found: Table: " + name + " not found");
        }
        return wrap("Table", description(t));
    }

    /** DescribeTable's Table object including stream fields from StreamSettings. */
    ObjectNode description(Table t) {
        ObjectNode d = t.describe();
        if (t.streamViewType != null) {
            ObjectNode spec = d.putObject("StreamSpecification");
            spec.put("StreamEnabled", t.streamEnabled);
            if (t.streamEnabled) {
                spec.put("StreamViewType", t.streamViewType);
            }
        }
        if (engine.streamSettings != null) {
            Optional<StreamSettings.StreamId> id = engine.streamSettings.current(t.name);
            id.ifPresent(
                    s -> {
                        d.put("LatestStreamArn", s.arn());
                        d.put("LatestStreamLabel", s.label());
                    });
        }
        return d;
    }

    ObjectNode list(ObjectNode request) {
        int limit = request.path("Limit").asInt(100);
        if (limit < 1 || limit > 100) {
            throw ApiException.validation(
                    "1 validation error detected: Value '"
                            + limit
                            + "' at 'limit' failed to satisfy constraint: Member must have value"
                            + " less than or equal to 100");
        }
        String start = request.path("ExclusiveStartTableName").asText(null);
        ConcurrentSkipListMap<String, Boolean> sorted = new ConcurrentSkipListMap<>();
        engine.tables.keySet().forEach(n -> sorted.put(n, true));
        var names = start == null ? sorted.keySet() : sorted.tailMap(start, false).keySet();
        ObjectNode out = engine.mapper.createObjectNode();
        ArrayNode a = out.putArray("TableNames");
        String last = null;
        for (String n : names) {
            if (a.size() == limit) {
                out.put("LastEvaluatedTableName", last);
                break;
            }
            a.add(n);
            last = n;
        }
        return out;
    }

    ObjectNode update(ObjectNode request) {
        engine.commitLock.lock();
        try {
            Table t = engine.table(request);
            List<ObjectNode> deleted = new ArrayList<>();
            for (JsonNode u : request.path("GlobalSecondaryIndexUpdates")) {
                IndexDef gone =
                        u.has("Delete")
                                ? t.index(u.get("Delete").path("IndexName").asText())
                                : null;
                if (gone != null && gone.global()) {
                    deleted.add(gone.describe(t.arn, t.indexes.get(gone.name()).size(), 0));
                }
            }
            updateLocked(t, request);
            engine.logDefinition("UpdateTable", request.deepCopy());
            return wrap(
                    "TableDescription", indexChangesInProgress(description(t), request, deleted));
        } finally {
            engine.commitLock.unlock();
        }
    }

    /**
     * The UpdateTable answer for index changes, as DynamoDB gives it while they run: the table
     * UPDATING, a new GSI CREATING with Backfilling, a dropped one DELETING. DescribeTable then
     * shows the table ACTIVE and the new GSI CREATING until its background backfill ends.
     */
    private static ObjectNode indexChangesInProgress(
            ObjectNode d, JsonNode request, List<ObjectNode> deleted) {
        Set<String> created = new HashSet<>();
        for (JsonNode u : request.path("GlobalSecondaryIndexUpdates")) {
            if (u.has("Create")) {
                created.add(u.get("Create").path("IndexName").asText());
            }
        }
        if (created.isEmpty() && deleted.isEmpty()) {
            return d;
        }
        d.put("TableStatus", "UPDATING");
        for (JsonNode g : d.path("GlobalSecondaryIndexes")) {
            if (created.contains(g.path("IndexName").asText())) {
                ((ObjectNode) g).put("IndexStatus", "CREATING");
                ((ObjectNode) g).put("Backfilling", true);
            }
        }
        if (!deleted.isEmpty()) {
            var gsis =
                    d.has("GlobalSecondaryIndexes")
                            ? (ArrayNode) d.get("GlobalSecondaryIndexes")
                            : d.putArray("GlobalSecondaryIndexes");
            for (ObjectNode g : deleted) {
                g.put("IndexStatus", "DELETING");
                gsis.add(g);
            }
        }
        return d;
    }

    private void updateLocked(Table t, ObjectNode request) {
        if (request.has("ReplicaUpdates")) {
            throw ApiException.validation(
                    "ReplicaUpdates are not supported by the streamledger local endpoint (global"
                            + " tables)");
        }
        Map<String, String> newTypes = new LinkedHashMap<>(t.attributeTypes);
        if (request.has("AttributeDefinitions")) {
            attributeTypes(request.get("AttributeDefinitions"))
                    .forEach(
                            (n, ty) -> {
                                String old = newTypes.put(n, ty);
                                if (old != null && !old.equals(ty)) {
                                    throw ApiException.validation(
                                            "Cannot change the type of attribute " + n);
                                }
                            });
        }
        List<IndexDef> gsis = new ArrayList<>(t.gsis);
        boolean changed = false;
        checkOneOnlineIndexChange(t, request.path("GlobalSecondaryIndexUpdates"));
        IndexDef backfill = null;
        for (JsonNode u : request.path("GlobalSecondaryIndexUpdates")) {
            if (u.has("Create")) {
                IndexDef idx = IndexDef.parse(u.get("Create"), newTypes, true);
                if (t.index(idx.name()) != null) {
                    throw ApiException.validation(
                            "One or more parameter values were invalid: Index with name "
                                    + idx.name()
                                    + " already exists");
                }
                checkGsiCount(gsis.size() + 1);
                gsis.add(idx);
                backfill = idx;
                changed = true;
            } else if (u.has("Delete")) {
                String n = u.get("Delete").path("IndexName").asText();
                if (!gsis.removeIf(i -> i.name().equals(n))) {
                    throw ApiException.resourceNotFound(
                            "Requested resource not found: Index: " + n + " not found");
                }
                t.indexes.remove(n);
                t.backfilling.remove(n);
                changed = true;
            } else if (u.has("Update")) {
                changed = true; // throughput of an index: accepted, nothing to enforce locally
            }
        }
        if (changed) {
            if (backfill != null) {
                // declared before the first write sees it: commits maintain it from now on
                t.indexes.put(backfill.name(), new ConcurrentSkipListMap<>());
                t.backfilling.add(backfill.name());
            }
            t.gsis = List.copyOf(gsis);
            t.attributeTypes.putAll(newTypes);
            if (backfill != null) {
                engine.backfill.start(t, backfill);
            }
        }
        if (request.has("BillingMode")) {
            String mode = request.get("BillingMode").asText();
            if (mode.equals("PAY_PER_REQUEST") && !t.billingMode.equals(mode)) {
                t.payPerRequestSince = engine.clock.instant();
            }
            t.billingMode = mode;
        }
        if (request.has("ProvisionedThroughput")) {
            t.provisionedThroughput = request.get("ProvisionedThroughput");
        }
        if (request.has("DeletionProtectionEnabled")) {
            t.deletionProtection = request.get("DeletionProtectionEnabled").asBoolean();
        }
        JsonNode spec = request.get("StreamSpecification");
        if (spec != null) {
            boolean enable = spec.path("StreamEnabled").asBoolean(false);
            if (enable) {
                if (t.streamEnabled) {
                    throw ApiException.validation("Table already has an enabled stream: " + t.arn);
                }
                enableStream(t, spec);
            } else {
                if (!t.streamEnabled) {
                    throw ApiException.validation(
                            "Table does not have an enabled stream: " + t.arn);
                }
                t.streamEnabled = false;
                if (engine.streamSettings != null) {
                    engine.streamSettings.disable(t.name);
                }
            }
        }
    }

    ObjectNode updateTimeToLive(ObjectNode request) {
        engine.commitLock.lock();
        try {
            Table t = engine.table(request);
            JsonNode spec = request.path("TimeToLiveSpecification");
            if (!spec.path("Enabled").isBoolean()) {
                throw ApiException.validation(
                        "1 validation error detected: Value null at"
                                + " 'timeToLiveSpecification.enabled' failed to satisfy"
                                + " constraint: Member must not be null");
            }
            boolean enabled = spec.path("Enabled").asBoolean();
            String attr = spec.path("AttributeName").asText("");
            if (attr.isEmpty()) {
                throw ApiException.validation(
                        "1 validation error detected: Value null at"
                                + " 'timeToLiveSpecification.attributeName' failed to satisfy"
                                + " constraint: Member must not be null");
            }
            if (enabled && t.ttlAttribute != null) {
                throw ApiException.validation("TimeToLive is already enabled");
            }
            if (!enabled && t.ttlAttribute == null) {
                throw ApiException.validation("TimeToLive is already disabled");
            }
            if (!enabled && !attr.equals(t.ttlAttribute)) {
                throw ApiException.validation(
                        "TimeToLive is active on a different AttributeName: current AttributeName is "
                                + t.ttlAttribute);
            }
            t.ttlAttribute = enabled ? attr : null;
            engine.logDefinition("UpdateTimeToLive", request.deepCopy());
            ObjectNode out = engine.mapper.createObjectNode();
            out.set("TimeToLiveSpecification", spec);
            return out;
        } finally {
            engine.commitLock.unlock();
        }
    }

    /** Point-in-time recovery is recorded and described; restoring is not offered locally. */
    ObjectNode describeContinuousBackups(ObjectNode request) {
        return wrap("ContinuousBackupsDescription", continuousBackups(backupTable(request)));
    }

    ObjectNode updateContinuousBackups(ObjectNode request) {
        engine.commitLock.lock();
        try {
            Table t = backupTable(request);
            JsonNode enabled =
                    request.path("PointInTimeRecoverySpecification")
                            .path("PointInTimeRecoveryEnabled");
            if (!enabled.isBoolean()) {
                throw ApiException.validation(
                        "1 validation error detected: Value null at"
                                + " 'pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled'"
                                + " failed to satisfy constraint: Member must not be null");
            }
            ObjectNode logged = request.deepCopy();
            logged.put("_at", engine.clock.instant().toEpochMilli());
            setPitr(t, logged);
            engine.logDefinition("UpdateContinuousBackups", logged);
            return wrap("ContinuousBackupsDescription", continuousBackups(t));
        } finally {
            engine.commitLock.unlock();
        }
    }

    private static void setPitr(Table t, JsonNode request) {
        boolean on =
                request.path("PointInTimeRecoverySpecification")
                        .path("PointInTimeRecoveryEnabled")
                        .asBoolean();
        if (!on) {
            t.pitrSince = null;
        } else if (t.pitrSince == null) {
            t.pitrSince = Instant.ofEpochMilli(request.path("_at").asLong());
        }
    }

    /** The backups APIs name a missing table TableNotFoundException, unlike the table APIs. */
    private Table backupTable(ObjectNode request) {
        String name = request.path("TableName").asText();
        Table t = engine.tables.get(name);
        if (t == null) {
            throw new ApiException("TableNotFoundException", 400, "Table not found: " + name);
        }
        return t;
    }

    private ObjectNode continuousBackups(Table t) {
        ObjectNode d = engine.mapper.createObjectNode();
        d.put("ContinuousBackupsStatus", "ENABLED");
        ObjectNode p = d.putObject("PointInTimeRecoveryDescription");
        Instant since = t.pitrSince;
        if (since == null) {
            p.put("PointInTimeRecoveryStatus", "DISABLED");
        } else {
            p.put("PointInTimeRecoveryStatus", "ENABLED");
            p.put("RecoveryPeriodInDays", 35);
            Instant now = engine.clock.instant();
            Instant earliest =
                    since.isBefore(now.minusSeconds(35L * 86400))
                            ? now.minusSeconds(35L * 86400)
                            : since;
            p.put("EarliestRestorableDateTime", earliest.toEpochMilli() / 1000.0);
            p.put(
                    "LatestRestorableDateTime",
                    now.minusSeconds(300).isBefore(earliest)
                            ? earliest.toEpochMilli() / 1000.0
                            : now.minusSeconds(300).toEpochMilli() / 1000.0);
        }
        return d;
    }

    ObjectNode describeTimeToLive(ObjectNode request) {
        Table t = engine.table(request);
        ObjectNode out = engine.mapper.createObjectNode();
        ObjectNode d = out.putObject("TimeToLiveDescription");
        String attr = t.ttlAttribute;
        d.put("TimeToLiveStatus", attr == null ? "DISABLED" : "ENABLED");
        if (attr != null) {
            d.put("AttributeName", attr);
        }
        return out;
    }

    ObjectNode describeLimits() {
        ObjectNode out = engine.mapper.createObjectNode();
        out.put("AccountMaxReadCapacityUnits", 80000);
        out.put("AccountMaxWriteCapacityUnits", 80000);
        out.put("TableMaxReadCapacityUnits", 40000);
        out.put("TableMaxWriteCapacityUnits", 40000);
        return out;
    }

    ObjectNode listTags(ObjectNode request) {
        ObjectNode out = engine.mapper.createObjectNode();
        out.putArray("Tags");
        return out;
    }

    ObjectNode tag(ObjectNode request) {
        return engine.mapper.createObjectNode();
    }

    /** Re-applies a logged definition change during WAL replay. */
    void replay(String operation, ObjectNode request) {
        switch (operation) {
            case "CreateTable" -> createLocked(request);
            case "DeleteTable" -> {
                engine.tables.remove(request.path("TableName").asText());
                if (engine.streamSettings != null) {
                    engine.streamSettings.tableDeleted(request.path("TableName").asText());
                }
            }
            case "UpdateTable" -> updateLocked(engine.table(request), request);
            case "UpdateTimeToLive" -> {
                Table t = engine.table(request);
                JsonNode spec = request.path("TimeToLiveSpecification");
                t.ttlAttribute =
                        spec.path("Enabled").asBoolean(false)
                                ? spec.path("AttributeName").asText()
                                : null;
            }
            case "UpdateContinuousBackups" -> setPitr(engine.table(request), request);
            default ->
                    throw new IllegalStateException("unknown WAL definition record " + operation);
        }
    }

    private ObjectNode wrap(String field, ObjectNode value) {
        ObjectNode out = engine.mapper.createObjectNode();
        out.set(field, value);
        return out;
    }
}
