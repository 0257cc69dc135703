package io.streamledger.model.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** CS08 replay: only late reconciliation records (AP14) are refused, with their reason. */
class DeadLetterReasonTest {

    @Test
    void onlyLateRecordsAreRefusedAReplayAndTheRefusalNamesTheBatchRevision() {
        for (DeadLetterReason r : DeadLetterReason.values()) {
            if (r == DeadLetterReason.LATE_RECORD) {
                assertThat(r.replayRefusal())
                        .contains("next batch revision")
                        .contains("not re-injected");
            } else {
                assertThat(r.replayRefusal()).as(r.name()).isNull();
            }
        }
    }
}
