package io.streamledger.model.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The shared strict mapper (CS10): exact decimals, no duplicate keys, no trailing tokens. */
class StrictMapperTest {

    @Test
    void floatsAreReadAsExactBigDecimals() throws JsonProcessingException {
        var n = StrictMapper.MAPPER.readTree("{\"a\":0.1000000000000000055511151231257827}");
        assertThat(n.get("a").isBigDecimal()).isTrue();
        assertThat(n.get("a").decimalValue())
                .isEqualTo(new BigDecimal("0.1000000000000000055511151231257827"));
    }

    @Test
    void duplicateKeysAndTrailingTokensAreRejected() {
        assertThatThrownBy(() -> StrictMapper.MAPPER.readTree("{\"a\":1,\"a\":2}"))
                .isInstanceOf(JsonProcessingException.class);
        assertThatThrownBy(() -> StrictMapper.MAPPER.readTree("{\"a\":1} {}"))
                .isInstanceOf(JsonProcessingException.class);
    }
}
