package io.streamledger.sinks.posting;

import io.streamledger.operators.posting.PostingOutcome;
import java.io.Serializable;

/**
 * Told the outcome of every fill the transaction sink wrote (APPLIED or DUPLICATE, with its
 * attempts). Production needs nothing beyond the sink's metrics ({@link #NONE}); tests collect the
 * outcomes to assert attempts and statuses. Called from the DynamoDB client's threads.
 */
@FunctionalInterface
public interface PostingOutcomeListener extends Serializable {

    PostingOutcomeListener NONE = o -> {};

    void onOutcome(PostingOutcome outcome);
}
