package io.streamledger.command.repair;

import io.streamledger.aws.items.Av;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.ErrorBodies;
import io.streamledger.command.config.Schema;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.command.idempotency.IdempotencyRecord;
import io.streamledger.command.idempotency.IdempotencyStore;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.idempotency.OwnershipLostException;
import io.streamledger.command.idempotency.RequestState;
import io.streamledger.command.worker.BackgroundRounds;
import io.streamledger.command.worker.TenantDirectory;
import io.streamledger.model.keys.RepairDueKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The AP18 idempotency repair worker (IDX19, CS02): finds due REPAIR_REQUIRED and expired
 * IN_PROGRESS records through the sparse repair index, strongly re-reads each, takes one repair
 * lease by conditional takeover, then completes from evidence or re-attempts the deterministic
 * effect (the effect's own transaction discovers an existing effect), or escalates — an escalated
 * record leaves the worker's queue and waits for an operator ({@code ops.RepairQueue}).
 */
public final class IdempotencyRepairWorker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IdempotencyRepairWorker.class);

    /** Records examined per shard and round (a limit on everything). */
    private static final int PAGE = 25;

    private final Ddb ddb;
    private final IdempotencyStore store;
    private final TenantDirectory tenants;
    private final Function<IdempotencyRecord, IdempotentExecutor.Effect> effects;
    private final String owner;
    private final Clock clock;
    private final Duration retryDelay;
    private final Map<RepairOutcome, LongAdder> counts = new EnumMap<>(RepairOutcome.class);
    @Nullable private BackgroundRounds rounds;

    /**
     * @param effects the re-attempt of a record's operation from its stored canonical command, or
     *     null when the operation has no safe automatic re-attempt (then it is escalated)
     */
    public IdempotencyRepairWorker(
            Ddb ddb,
            IdempotencyStore store,
            TenantDirectory tenants,
            Function<IdempotencyRecord, IdempotentExecutor.Effect> effects,
            String owner,
            Duration retryDelay) {
        this.ddb = ddb.ap("AP18");
        this.store = store;
        this.tenants = tenants;
        this.effects = effects;
        this.owner = owner;
        this.clock = store.clock();
        this.retryDelay = retryDelay;
        for (RepairOutcome o : RepairOutcome.values()) {
            counts.put(o, new LongAdder());
        }
    }

    /** One round over every tenant's repair shards; returns the number of records examined. */
    public int pollOnce() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        int examined = 0;
        CapacityMeter meter = new CapacityMeter();
        for (String tenant : tenants.tenants()) {
            for (int shard = 0; shard < Schema.REPAIR_SHARDS.shardCount(); shard++) {
                String bound = new RepairDueKey(tenant, shard, now.plusMillis(1), "!").sk();
                QueryResponse r =
                        ddb.query(
                                QueryRequest.builder()
                                        .tableName(store.table())
                                        .indexName(Schema.REPAIR_INDEX)
                                        .keyConditionExpression("#pk = :pk AND #sk < :bound")
                                        .expressionAttributeNames(
                                                Map.of(
                                                        "#pk",
                                                        Schema.REPAIR_PK,
                                                        "#sk",
                                                        Schema.REPAIR_SK))
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":pk",
                                                        Av.s(Schema.repairPk(tenant, shard)),
                                                        ":bound",
                                                        Av.s(bound)))
                                        .limit(PAGE),
                                meter);
                for (Map<String, AttributeValue> k : r.items()) {
                    RepairDueKey due =
                            RepairDueKey.parse(
                                    k.get(Schema.REPAIR_PK).s(), k.get(Schema.REPAIR_SK).s());
                    repairOne(tenant, due.clientKey());
                    examined++;
                }
            }
        }
        return examined;
    }

    /** Repairs one record; the strong re-read, not the eventual index entry, decides. */
    public RepairOutcome repairOne(String tenant, String requestKey) {
        RepairOutcome o = attempt(tenant, requestKey);
        counts.get(o).increment();
        return o;
    }

    private RepairOutcome attempt(String tenant, String requestKey) {
        CapacityMeter meter = new CapacityMeter();
        IdempotencyRecord rec = store.read(tenant, requestKey, meter);
        if (rec == null || rec.state() == RequestState.COMPLETED || rec.leaseLive(clock.millis())) {
            return RepairOutcome.SKIPPED;
        }
        Claim claim = store.takeOver(rec, owner, meter);
        if (claim == null) {
            return RepairOutcome.LEASE_LOST;
        }
        IdempotentExecutor.Effect effect;
        try {
            effect = effects.apply(rec);
        } catch (RuntimeException unreadable) {
            effect = null;
        }
        if (effect == null) {
            store.escalate(
                    claim, "no automatic re-attempt for operation " + rec.operation(), meter);
            return RepairOutcome.ESCALATED;
        }
        try {
            effect.apply(claim, meter);
            LOG.info("repaired {} {} for tenant {}", rec.operation(), requestKey, tenant);
            return RepairOutcome.COMPLETED;
        } catch (ApiException rejection) {
            if (rejection.status() >= 500) {
                store.markRepairRequired(claim, rejection.getMessage(), retryDelay, meter);
                return RepairOutcome.RETRY_LATER;
            }
            // a business rejection is the command's deterministic result
            DurableResponse response =
                    new DurableResponse(rejection.status(), ErrorBodies.json(rejection));
            return store.completeAlone(claim, response, meter)
                    ? RepairOutcome.COMPLETED
                    : RepairOutcome.LEASE_LOST;
        } catch (OwnershipLostException lost) {
            return RepairOutcome.LEASE_LOST;
        } catch (IllegalStateException contradiction) {
            store.escalate(claim, contradiction.getMessage(), meter);
            return RepairOutcome.ESCALATED;
        } catch (RuntimeException ambiguous) {
            store.markRepairRequired(
                    claim,
                    ambiguous.getClass().getSimpleName() + ": " + ambiguous.getMessage(),
                    retryDelay,
                    meter);
            return RepairOutcome.RETRY_LATER;
        }
    }

    public IdempotencyRepairWorker start(Duration interval) {
        rounds = BackgroundRounds.start("idempotency-repair-" + owner, 1);
        rounds.every(
                interval, interval, this::pollOnce, LOG, "repair round failed; next round retries");
        return this;
    }

    @Override
    public void close() {
        if (rounds != null) {
            rounds.close();
        }
    }

    public long count(RepairOutcome o) {
        return counts.get(o).sum();
    }
}
