package io.streamledger.command.outbox;

import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.outbox.RelayCapacity.Use;
import io.streamledger.model.lease.LeaseTiming;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * What every AP16 transition of one relay shares: its DynamoDB access (tagged AP16), the Context
 * table, the relay's owner id, its clock at millisecond precision, its lease timing, and the
 * capacity and counters it reports.
 */
final class RelayContext {
    final Ddb ddb;
    final String table;
    final String owner;
    final Clock clock;
    final LeaseTiming lease;
    final RelayCapacity capacity = new RelayCapacity();
    final RelayCounters counters = new RelayCounters();

    RelayContext(Ddb ddb, String table, String owner, Clock clock, LeaseTiming lease) {
        this.ddb = ddb.ap("AP16");
        this.table = table;
        this.owner = owner;
        this.clock = clock;
        this.lease = lease;
    }

    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * One conditional transition of an event's item, its capacity charged to {@code use}; null when
     * its condition failed: the transition is stale, another relay or an earlier step moved it.
     */
    @Nullable
    UpdateItemResponse transition(
            String eventId, ConditionalUpdate update, Use use, ReturnValue returnValues) {
        CapacityMeter meter = new CapacityMeter();
        try {
            UpdateItemResponse r =
                    ddb.update(
                            update.applyTo(
                                    UpdateItemRequest.builder()
                                            .tableName(table)
                                            .key(OutboxItems.key(eventId))
                                            .returnValues(returnValues)),
                            meter);
            capacity.add(use, meter);
            return r;
        } catch (ConditionalCheckFailedException stale) {
            return null;
        }
    }
}
