package io.streamledger.sinks.posting;

import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.aws.error.ErrorClass;
import io.streamledger.aws.retry.Retrying;
import io.streamledger.model.deadletter.DeadLetterIds;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.operators.posting.TradeFill;
import io.streamledger.operators.posting.TradeFills;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.Evidence;
import io.streamledger.sinks.breaks.BreakWrites;
import java.io.Serializable;
import java.time.Instant;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Where the posting job puts a fill it does not post (CS08 + AP15): a rejected fill becomes a
 * REJECTED_FILL dead letter and a REJECTED_RECORD break, a quarantined one a QUARANTINED dead
 * letter; both under ids derived from the fill's event id, so a replay after a restart bumps the
 * same entry's attempts and finds the break already there (exactly-once effects). Used by the
 * guard's rejected-fill sink and by the transaction writer (rejections found after reading the
 * counters).
 *
 * @param job job role on the entries, e.g. {@code posting}
 * @param deadLetterTable physical DeadLetter table
 * @param breaks the break table, owner and due delay
 */
public record PostingRejections(String job, String deadLetterTable, BreakWrites breaks)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The break reason of every rejected fill (the rule's code is in the evidence). */
    public static final String BREAK_REASON = "REJECTED_FILL";

    /** The dead-letter origin of a fill: its event id (entry id = job + origin). */
    public static String origin(String eventId) {
        return "event:" + eventId;
    }

    /** The REJECTED_FILL entry of a rejected outcome set aside by {@code operator}. */
    public DeadLetterEntry deadLetter(PostingOutcome o, String operator) {
        return new DeadLetterEntry(
                o.getTenant(),
                job,
                operator,
                DeadLetterReason.REJECTED_FILL,
                o.getReason(),
                o.getPayload(),
                "json",
                origin(o.getEventId()),
                null,
                aggregateKey(o.getAccountId()),
                0,
                o.getAtMillis());
    }

    /** The QUARANTINED entry of a fill that kept failing: error class, message and attempts. */
    public DeadLetterEntry quarantined(
            TradeFill fill, String operator, Throwable error, int attempts, long atMillis) {
        ErrorClass cls = DynamoDbErrorClassifier.classify(error);
        return new DeadLetterEntry(
                fill.getTenant(),
                job,
                operator,
                DeadLetterReason.QUARANTINED,
                cls
                        + " after "
                        + attempts
                        + " attempts: "
                        + DynamoDbErrorClassifier.describe(error),
                TradeFills.toJson(fill),
                "json",
                origin(fill.getEventId()),
                null,
                aggregateKey(fill.getAccountId()),
                0,
                atMillis);
    }

    /** The AP15 break of a rejected outcome: daily batch of the fill's execution day. */
    public BreakRecord breakOf(PostingOutcome o) {
        long day = o.getExecutedAtMillis() > 0 ? o.getExecutedAtMillis() : o.getAtMillis();
        return new BreakRecord(
                o.getTenant(),
                BreakRecord.dailyBatch(BreakRecord.Origin.REJECTED_RECORD, day),
                BreakRecord.id("FILL", o.getEventId()),
                BREAK_REASON,
                BreakRecord.Origin.REJECTED_RECORD,
                o.getAtMillis(),
                o.getAccountId() == null ? o.getEventId() : o.getAccountId(),
                Evidence.of()
                        .put("job", job)
                        .put("rejection", o.reasonCode())
                        .put("detail", o.getReason())
                        .put("eventId", o.getEventId())
                        .put("accountId", o.getAccountId())
                        .json());
    }

    /**
     * Writes {@code entry} and, if given, {@code brk} (create-once), each under {@code retrying}.
     *
     * @return true if the dead letter already existed (a repeat of the same record)
     * @throws RuntimeException when either write fails for good: the caller fails the job
     */
    public boolean write(
            DynamoDbClient ddb,
            Retrying retrying,
            DeadLetterEntry entry,
            @Nullable BreakRecord brk) {
        UpdateItemResponse r =
                retrying.call(() -> ddb.updateItem(DeadLetterItems.upsert(deadLetterTable, entry)));
        if (brk != null) {
            try {
                retrying.call(() -> ddb.putItem(breaks.createOnce(brk)));
            } catch (RuntimeException e) {
                if (DynamoDbErrorClassifier.classify(e) != ErrorClass.CONDITION_FAILED) {
                    throw e;
                }
                // the break of this fill already exists: a replay
            }
        }
        return r.hasAttributes() && r.attributes().containsKey(DeadLetterItems.A_ATTEMPTS);
    }

    /** The entry of a fill set aside for {@code reason} (replays name theirs). */
    public DeadLetterKey key(String tenant, String eventId, DeadLetterReason reason) {
        return new DeadLetterKey(
                tenant, job, reason.name(), DeadLetterIds.of(job, origin(eventId)));
    }

    /**
     * Settles the dead-letter entry a replayed fill came from ({@code replayOf}, a {@code
     * DeadLetterKey#ref}): REPLAY_REQUESTED (or REPLAY_PARKED, if its gate held it behind a gap) →
     * REPLAYED when it posted (or was already posted), → OPEN (back in the operators' queue) when
     * it was set aside again, its attempts bumped by {@link #write} when that landed on this same
     * entry ({@code attemptCounted}), else by the settle. Conditional on the requested version
     * ({@code DeadLetterItems#settleReplayRequests}), so a second copy of one replay changes
     * nothing.
     *
     * @return false if the entry had moved on (a repeat of this replay)
     */
    public boolean settleReplay(
            DynamoDbClient ddb,
            Retrying retrying,
            String replayOf,
            long replayVersion,
            boolean posted,
            boolean attemptCounted,
            String note) {
        return DeadLetterItems.settleFirst(
                DeadLetterItems.settleReplayRequests(
                        deadLetterTable,
                        DeadLetterKey.fromRef(replayOf),
                        replayVersion,
                        posted,
                        attemptCounted,
                        "job:" + job,
                        note,
                        Instant.now()),
                request -> {
                    try {
                        retrying.call(() -> ddb.updateItem(request));
                        return true;
                    } catch (RuntimeException e) {
                        if (DynamoDbErrorClassifier.classify(e) != ErrorClass.CONDITION_FAILED) {
                            throw e;
                        }
                        return false;
                    }
                });
    }

    /** Whether {@code replayOf} names {@code entry}'s own key (its upsert counted the attempt). */
    public static boolean sameEntry(@Nullable String replayOf, DeadLetterKey entry) {
        return replayOf != null && entry.ref().equals(replayOf);
    }

    private static String aggregateKey(String accountId) {
        return accountId == null ? null : "Account#" + accountId;
    }
}
