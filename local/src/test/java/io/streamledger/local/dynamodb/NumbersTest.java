package io.streamledger.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.spi.ApiException;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class NumbersTest {
    @Test
    void normalizesLikeDynamoDb() {
        assertThat(Numbers.normalize("1.50")).isEqualTo("1.5");
        assertThat(Numbers.normalize("1E+2")).isEqualTo("100");
        assertThat(Numbers.normalize("-0.000")).isEqualTo("0");
        assertThat(Numbers.normalize("007")).isEqualTo("7");
        assertThat(Numbers.normalize("1e-3")).isEqualTo("0.001");
    }

    @Test
    void enforcesPrecisionAndRange() {
        assertThat(Numbers.normalize("9".repeat(38))).hasSize(38);
        assertThatThrownBy(() -> Numbers.normalize("9".repeat(39)))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("38 significant digits");
        assertThatThrownBy(() -> Numbers.normalize("1E+126")).hasMessageContaining("overflow");
        assertThatThrownBy(() -> Numbers.normalize("1E-131")).hasMessageContaining("underflow");
        assertThatThrownBy(() -> Numbers.normalize("abc"))
                .hasMessageContaining("cannot be converted");
        assertThat(Numbers.check(new BigDecimal("0.1").add(new BigDecimal("0.2"))))
                .isEqualByComparingTo("0.3");
    }
}
