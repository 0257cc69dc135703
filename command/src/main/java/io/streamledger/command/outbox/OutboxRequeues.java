package io.streamledger.command.outbox;

import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.outbox.RelayCapacity.Use;
import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * AP16 step 4 after a failed publish, IN_FLIGHT → READY by the lease owner: the event is due again
 * after a half-jitter backoff that grows with its attempts (it is re-queued until published), and
 * the events of its aggregate claimed behind it are held just after it, keeping their order.
 */
final class OutboxRequeues {

    private final RelayContext ctx;
    private final RetryPolicy backoff;

    OutboxRequeues(RelayContext ctx, Duration baseBackoff, Duration maxBackoff) {
        this.ctx = ctx;
        this.backoff = RetryPolicy.halfJitter(Integer.MAX_VALUE, baseBackoff, maxBackoff);
    }

    /** The failed event back to READY, due after its backoff. */
    boolean requeue(InFlight f, String error) {
        return requeue(f, ctx.now().plus(backoff(f.attempt())), error);
    }

    /** Back to READY due at {@code due}; false when this relay no longer owns the attempt. */
    boolean requeue(InFlight f, Instant due, String error) {
        if (ctx.transition(
                        f.eventId(),
                        OutboxItems.backToReady(f.eventId(), due, error)
                                .when(OutboxCompletions.inFlightOf(ctx.owner, f.attempt()))
                                .build(),
                        Use.REQUEUE,
                        ReturnValue.NONE)
                == null) {
            return false;
        }
        ctx.counters.retried.increment();
        return true;
    }

    /** An event kept behind an earlier event of its aggregate that went back to READY. */
    void holdBehind(InFlight f, Instant due, String why) {
        ctx.counters.held.increment();
        requeue(f, due, why);
    }

    /** Wait before publish attempt {@code attempt + 1}: half jitter below base * 2^attempt. */
    Duration backoff(int attempt) {
        return Duration.ofMillis(backoff.delayMillis(attempt + 1));
    }
}
