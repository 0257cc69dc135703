package io.streamledger.command.schedule;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.model.keys.DutyLeaseKey;
import io.streamledger.model.lease.LeaseTiming;
import io.streamledger.model.table.Attr;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * One instance per duty shard (the AP08 lease pattern on a {@code TEN#t#LEASE#duty#shard} item): an
 * instance takes a free lease, or one that ended at least the stated clock skew ago ({@link
 * LeaseTiming}), renews its own every third of the lease, and works the shard only while {@link
 * #mayAct} holds. A standby remembers the holder's expiry from the refused write and tries again
 * only once that lease may be taken over, so standing by costs no writes. Every take-over bumps
 * {@code fence}. Thread-confined: one scheduler thread per instance.
 */
public final class DutyLeases {

    /** A lease this instance holds. */
    public record Held(DutyLeaseKey key, Instant until, long fence, Instant writtenAt) {}

    static final String A_DUTY = "duty";
    static final String A_SHARD = "shard";
    static final String A_FENCE = "fence";
    static final String A_TENANT = "tenant";

    private final Ddb ddb;
    private final String table;
    private final Clock clock;
    private final LeaseTiming timing;
    private final String owner;
    private final DutyMetrics metrics;
    private final Map<DutyLeaseKey, Held> held = new ConcurrentHashMap<>();
    private final Map<DutyLeaseKey, Instant> othersUntil = new ConcurrentHashMap<>();

    public DutyLeases(
            Ddb ddb,
            String table,
            Clock clock,
            LeaseTiming timing,
            String owner,
            DutyMetrics metrics) {
        this.ddb = ddb.ap("AP08");
        this.table = table;
        this.clock = clock;
        this.timing = timing;
        this.owner = owner;
        this.metrics = metrics;
    }

    /** The lease of {@code key} if this instance holds it now, renewing or taking it when due. */
    public Optional<Held> hold(DutyLeaseKey key) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Held mine = held.get(key);
        if (mine != null
                && now.isBefore(mine.writtenAt().plus(timing.renewEvery()))
                && timing.holderMayAct(now, mine.until())) {
            return Optional.of(mine);
        }
        Instant other = othersUntil.get(key);
        if (other != null && !timing.takeoverAllowed(now, other)) {
            return Optional.empty();
        }
        return write(key, now, mine != null);
    }

    /** True while {@code h} may still be worked on (checked before each effect). */
    public boolean mayAct(Held h) {
        return held.get(h.key()) == h && timing.holderMayAct(clock.instant(), h.until());
    }

    /** Leases this instance holds now, of {@code duty}. */
    public long heldCount(String duty) {
        Instant now = clock.instant();
        return held.values().stream()
                .filter(h -> h.key().duty().equals(duty) && timing.holderMayAct(now, h.until()))
                .count();
    }

    private Optional<Held> write(DutyLeaseKey key, Instant now, boolean renewal) {
        Instant until = timing.until(now);
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(Attr.LEASE_OWNER, Av.s(owner))
                        .set(Attr.LEASE_UNTIL, Av.n(until.toEpochMilli()))
                        .set(A_TENANT, Av.s(key.tenant()))
                        .set(A_DUTY, Av.s(key.duty()))
                        .set(A_SHARD, Av.n(key.shard()))
                        .add(A_FENCE, Av.n(renewal ? 0 : 1))
                        // free, mine, or ended at least the clock skew ago
                        .when(
                                Condition.or(
                                        Condition.notExists(Attr.PK),
                                        Condition.eq(Attr.LEASE_OWNER, Av.s(owner)),
                                        Condition.le(
                                                Attr.LEASE_UNTIL,
                                                Av.n(timing.expiredBy(now).toEpochMilli()))))
                        .build();
        try {
            UpdateItemResponse r =
                    ddb.update(
                            update.applyTo(
                                    UpdateItemRequest.builder()
                                            .tableName(table)
                                            .key(
                                                    Map.of(
                                                            Attr.PK,
                                                            Av.s(key.pk()),
                                                            Attr.SK,
                                                            Av.s(key.sk())))
                                            .returnValues(ReturnValue.ALL_NEW)
                                            .returnValuesOnConditionCheckFailure(
                                                    ReturnValuesOnConditionCheckFailure.ALL_OLD)),
                            new CapacityMeter());
            Held h = new Held(key, until, Av.lng(r.attributes(), A_FENCE, 0), now);
            if (!renewal) {
                metrics.leaseTaken(key.duty());
            }
            held.put(key, h);
            othersUntil.remove(key);
            return Optional.of(h);
        } catch (ConditionalCheckFailedException taken) {
            held.remove(key);
            Map<String, AttributeValue> old = taken.hasItem() ? taken.item() : Map.of();
            othersUntil.put(key, Instant.ofEpochMilli(Av.lng(old, Attr.LEASE_UNTIL, 0)));
            return Optional.empty();
        }
    }
}
