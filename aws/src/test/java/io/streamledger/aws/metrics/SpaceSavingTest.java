package io.streamledger.aws.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The hot-key sketch behind the seed's measured max-key share (LANE rows). */
class SpaceSavingTest {

    @Test
    void keepsAtMostCapacityKeysAndNeverUnderestimates() {
        SpaceSaving s = new SpaceSaving(3);
        for (int i = 0; i < 1000; i++) {
            s.offer("hot");
            s.offer("k" + i); // a long tail of distinct keys
        }
        assertThat(s.top()).hasSize(3);
        assertThat(s.top().get(0).key()).isEqualTo("hot");
        assertThat(s.top().get(0).count()).isGreaterThanOrEqualTo(1000);
        assertThat(s.total()).isEqualTo(2000);
        // true share 0.5; the estimate is an upper bound within total/capacity
        assertThat(s.maxShare()).isBetween(0.5, 0.5 + 1.0 / 3);
    }

    @Test
    void exactWhileKeysFit() {
        SpaceSaving s = new SpaceSaving(10);
        for (int i = 0; i < 6; i++) {
            s.offer("a");
        }
        s.offer("b");
        s.offer("b");
        assertThat(s.countAt(1)).isEqualTo(6);
        assertThat(s.countAt(2)).isEqualTo(2);
        assertThat(s.countAt(3)).isZero();
        assertThat(s.top().get(1).error()).isZero();
        assertThat(s.maxShare()).isEqualTo(0.75);
    }

    @Test
    void emptySketchHasNoShareAndCapacityIsBounded() {
        assertThat(new SpaceSaving(1).maxShare()).isZero();
        assertThatThrownBy(() -> new SpaceSaving(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
