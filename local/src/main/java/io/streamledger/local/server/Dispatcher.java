package io.streamledger.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.DynamoDbEngine;
import io.streamledger.local.fault.FaultInjector;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.ApiExtension;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes an {@code X-Amz-Target} to the engine or to a registered {@link ApiExtension}, after
 * credential checks and fault injection; unknown targets get UnknownOperationException (CS07
 * streams plug in here).
 */
public final class Dispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    static final String DYNAMODB_PREFIX = "DynamoDB_20120810.";
    private static final Set<String> PER_ITEM_THROTTLE =
            Set.of("BatchWriteItem", "BatchGetItem", "BatchExecuteStatement");

    /** DynamoDB operations deliberately left out, by family (named in the error a client gets). */
    static final Map<String, String> UNSUPPORTED =
            Map.ofEntries(
                    Map.entry("CreateBackup", "backups"),
                    Map.entry("DeleteBackup", "backups"),
                    Map.entry("DescribeBackup", "backups"),
                    Map.entry("ListBackups", "backups"),
                    Map.entry("RestoreTableFromBackup", "backups"),
                    Map.entry("RestoreTableToPointInTime", "backups"),
                    Map.entry("CreateGlobalTable", "global tables"),
                    Map.entry("UpdateGlobalTable", "global tables"),
                    Map.entry("DescribeGlobalTable", "global tables"),
                    Map.entry("ListGlobalTables", "global tables"),
                    Map.entry("UpdateGlobalTableSettings", "global tables"),
                    Map.entry("DescribeGlobalTableSettings", "global tables"),
                    Map.entry("DescribeTableReplicaAutoScaling", "global tables"),
                    Map.entry("UpdateTableReplicaAutoScaling", "global tables"),
                    Map.entry("ImportTable", "imports from S3"),
                    Map.entry("DescribeImport", "imports from S3"),
                    Map.entry("ListImports", "imports from S3"));

    private final DynamoDbEngine engine;
    private final Map<String, ApiExtension> extensions = new HashMap<>();
    private final FaultInjector faults;
    private final Credentials credentials;

    public Dispatcher(
            DynamoDbEngine engine,
            List<ApiExtension> extensionList,
            FaultInjector faults,
            Credentials credentials) {
        this.engine = engine;
        this.faults = faults;
        this.credentials = credentials;
        for (ApiExtension e : extensionList) {
            for (String target : e.targets()) {
                if (extensions.put(target, e) != null) {
                    throw new IllegalArgumentException("two extensions serve " + target);
                }
            }
        }
    }

    /** Checks a request's Authorization header (for targets the front serves itself). */
    public void authenticate(String authorization) {
        credentials.check(authorization);
    }

    /** Serves one request; throws ApiException for a DynamoDB-shaped error. */
    public JsonNode dispatch(String target, String authorization, JsonNode body) {
        credentials.check(authorization);
        if (target == null || target.isEmpty()) {
            throw new ApiException("UnknownOperationException", 400, "Missing X-Amz-Target header");
        }
        if (!body.isObject()) {
            throw new ApiException(
                    "SerializationException",
                    400,
                    "Start of structure or map found where not expected.");
        }
        ObjectNode request = (ObjectNode) body;
        int dot = target.indexOf('.');
        String operation = dot < 0 ? target : target.substring(dot + 1);
        boolean engineOp =
                target.startsWith(DYNAMODB_PREFIX) && DynamoDbEngine.OPERATIONS.contains(operation);
        ApiExtension extension = engineOp ? null : extensions.get(target);
        if (!engineOp && extension == null) {
            String family = target.startsWith(DYNAMODB_PREFIX) ? UNSUPPORTED.get(operation) : null;
            throw new ApiException(
                    "UnknownOperationException",
                    400,
                    family == null
                            ? "Unknown operation: " + target
                            : operation
                                    + " is not supported by the streamledger local endpoint ("
                                    + family
                                    + ")");
        }
        faults.beforeRequest(
                operation,
                tablesOf(request),
                target.startsWith(DYNAMODB_PREFIX) && PER_ITEM_THROTTLE.contains(operation),
                request);
        if (engineOp) {
            return engine.handle(operation, request);
        }
        return extension.handle(target, request);
    }

    private static Collection<String> tablesOf(ObjectNode request) {
        JsonNode name = request.get("TableName");
        if (name != null && name.isTextual()) {
            return List.of(name.asText());
        }
        List<String> tables = new ArrayList<>();
        JsonNode ri = request.get("RequestItems");
        if (ri != null && ri.isObject()) {
            ri.fieldNames().forEachRemaining(tables::add);
        }
        JsonNode ti = request.get("TransactItems");
        if (ti != null && ti.isArray()) {
            for (JsonNode a : ti) {
                Iterator<JsonNode> it = a.elements();
                while (it.hasNext()) {
                    JsonNode t = it.next().get("TableName");
                    if (t != null && !tables.contains(t.asText())) {
                        tables.add(t.asText());
                    }
                }
            }
        }
        JsonNode arn = request.get("StreamArn");
        if (arn != null && arn.isTextual()) {
            String s = arn.asText();
            int i = s.indexOf(":table/");
            if (i >= 0) {
                int end = s.indexOf('/', i + 7);
                tables.add(end < 0 ? s.substring(i + 7) : s.substring(i + 7, end));
            }
        }
        return tables;
    }

    /** Error body in DynamoDB's shape. */
    static ObjectNode errorBody(ObjectMapper mapper, ApiException e) {
        ObjectNode o = mapper.createObjectNode();
        o.put("__type", e.wireType());
        o.put("message", e.getMessage());
        if (e.extra() != null) {
            o.setAll(e.extra());
        }
        if (e.type().equals("TransactionCanceledException")) {
            o.put("Message", e.getMessage());
        }
        return o;
    }

    static void logUnexpected(String target, RuntimeException e) {
        LOG.error("internal error serving {}", target, e);
    }
}
