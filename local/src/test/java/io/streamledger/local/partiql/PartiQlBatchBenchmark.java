package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.DynamoDbEngine;
import io.streamledger.local.fault.FaultInjector;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Endpoint CPU per version-guarded update (AP13/AP16, the sinks' write): 25 UpdateItem requests
 * against one BatchExecuteStatement of 25 {@code UPDATE … WHERE <key> AND version = ?} statements,
 * in-process on the engine (no HTTP, no client), request bodies built before timing. The difference
 * is what PartiQL's translation costs per statement. Not a test: a main that prints figures; run on
 * an idle machine.
 *
 * <p>Command: see the PartiQL section of the local README (arguments: warm-up rounds, measured
 * rounds).
 */
public final class PartiQlBatchBenchmark {
    private static final int BATCH = 25;
    private static final String TABLE = "Bench";
    private static final String STATEMENT =
            "UPDATE \"Bench\" SET version = ?, state = ?, amount = ? WHERE PK = ? AND SK = ? AND"
                    + " version = ?";

    private PartiQlBatchBenchmark() {}

    public static void main(String[] args) {
        int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        ObjectMapper mapper = AttributeValues.newMapper();
        try (DynamoDbEngine engine =
                new DynamoDbEngine(
                        mapper, Clock.systemUTC(), new FaultInjector(), null, null, false)) {
            PartiQlApi partiql = new PartiQlApi(engine);
            engine.handle("CreateTable", createTable(mapper));
            for (int i = 0; i < BATCH; i++) {
                ObjectNode put = mapper.createObjectNode().put("TableName", TABLE);
                ObjectNode item = put.putObject("Item");
                item.putObject("PK").put("S", "acct-" + i);
                item.putObject("SK").put("S", "STATE");
                item.putObject("version").put("N", "0");
                engine.handle("PutItem", put);
            }
            int version = 0;
            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            long[] updateNanos = new long[1];
            long[] batchNanos = new long[1];
            for (int phase = 0; phase < 2; phase++) {
                int n = phase == 0 ? warmup : rounds;
                updateNanos[0] = 0;
                batchNanos[0] = 0;
                for (int r = 0; r < n; r++) {
                    List<ObjectNode> updates = new ArrayList<>(BATCH);
                    for (int i = 0; i < BATCH; i++) {
                        updates.add(updateItem(mapper, i, version));
                    }
                    long t0 = cpu.getCurrentThreadCpuTime();
                    for (ObjectNode u : updates) {
                        engine.handle("UpdateItem", u);
                    }
                    updateNanos[0] += cpu.getCurrentThreadCpuTime() - t0;
                    version++;
                    ObjectNode batch = batch(mapper, version);
                    long t1 = cpu.getCurrentThreadCpuTime();
                    ObjectNode out =
                            (ObjectNode) partiql.handle(PartiQlApi.BATCH_EXECUTE_STATEMENT, batch);
                    batchNanos[0] += cpu.getCurrentThreadCpuTime() - t1;
                    if (out.get("Responses").get(0).has("Error")) {
                        throw new IllegalStateException("unexpected failure: " + out);
                    }
                    version++;
                }
            }
            double perUpdate = updateNanos[0] / 1000.0 / rounds / BATCH;
            double perStatement = batchNanos[0] / 1000.0 / rounds / BATCH;
            System.out.printf(
                    "rounds=%d x %d  UpdateItem: %.1f µs/item  BatchExecuteStatement: %.1f"
                            + " µs/statement  (PartiQL translation %.1f µs/statement)%n",
                    rounds, BATCH, perUpdate, perStatement, perStatement - perUpdate);
        }
    }

    private static ObjectNode createTable(ObjectMapper mapper) {
        ObjectNode t = mapper.createObjectNode().put("TableName", TABLE);
        t.put("BillingMode", "PAY_PER_REQUEST");
        ArrayNode defs = t.putArray("AttributeDefinitions");
        defs.addObject().put("AttributeName", "PK").put("AttributeType", "S");
        defs.addObject().put("AttributeName", "SK").put("AttributeType", "S");
        ArrayNode key = t.putArray("KeySchema");
        key.addObject().put("AttributeName", "PK").put("KeyType", "HASH");
        key.addObject().put("AttributeName", "SK").put("KeyType", "RANGE");
        return t;
    }

    /** The UpdateItem a sink sends for one item moving from {@code from} to the next version. */
    private static ObjectNode updateItem(ObjectMapper mapper, int i, int from) {
        ObjectNode u = mapper.createObjectNode().put("TableName", TABLE);
        ObjectNode key = u.putObject("Key");
        key.putObject("PK").put("S", "acct-" + i);
        key.putObject("SK").put("S", "STATE");
        u.put("UpdateExpression", "SET version = :next, #s = :state, amount = :amount");
        u.put("ConditionExpression", "attribute_exists(PK) AND version = :from");
        u.putObject("ExpressionAttributeNames").put("#s", "state");
        ObjectNode v = u.putObject("ExpressionAttributeValues");
        v.putObject(":next").put("N", Integer.toString(from + 1));
        v.putObject(":state").put("S", "posted");
        v.putObject(":amount").put("N", "123.45");
        v.putObject(":from").put("N", Integer.toString(from));
        return u;
    }

    private static ObjectNode batch(ObjectMapper mapper, int from) {
        ObjectNode b = mapper.createObjectNode();
        ArrayNode statements = b.putArray("Statements");
        for (int i = 0; i < BATCH; i++) {
            ObjectNode s = statements.addObject().put("Statement", STATEMENT);
            ArrayNode p = s.putArray("Parameters");
            p.addObject().put("N", Integer.toString(from + 1));
            p.addObject().put("S", "posted");
            p.addObject().put("N", "123.45");
            p.addObject().put("S", "acct-" + i);
            p.addObject().put("S", "STATE");
            p.addObject().put("N", Integer.toString(from));
        }
        return b;
    }
}
