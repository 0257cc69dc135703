package io.streamledger.command.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Strict request reading (CS10): exact decimals, no '#', unknown and missing fields named. */
class FieldsTest {

    private static Fields of(String json) {
        return Fields.of(StrictJson.parseObject(json.getBytes()));
    }

    private static String code(Runnable r) {
        try {
            r.run();
        } catch (ApiException e) {
            return e.code() + ": " + e.getMessage();
        }
        return "no error";
    }

    @Test
    void decimalsComeFromStringsOrNumbersExactly() {
        assertThat(of("{\"a\":\"12.50\"}").decimal("a")).isEqualTo(new BigDecimal("12.50"));
        assertThat(of("{\"a\":0.1}").decimal("a")).isEqualTo(new BigDecimal("0.1"));
        assertThat(of("{\"a\":100000000000000000000001}").decimal("a"))
                .isEqualTo(new BigDecimal("100000000000000000000001"));
        assertThat(code(() -> of("{\"a\":\"1e3\"}").decimal("a"))).startsWith("INVALID_AMOUNT");
        assertThat(code(() -> of("{\"a\":\"NaN\"}").decimal("a"))).startsWith("INVALID_AMOUNT");
        assertThat(code(() -> of("{\"a\":\"+1\"}").decimal("a"))).startsWith("INVALID_AMOUNT");
        assertThat(code(() -> of("{\"a\":true}").decimal("a"))).startsWith("INVALID_AMOUNT");
        assertThat(code(() -> of("{\"a\":\"1" + "0".repeat(40) + "\"}").decimal("a")))
                .startsWith("INVALID_AMOUNT");
    }

    @Test
    void moneyScaleIsTheCurrencysAndBinaryFloatNoiseIsRejected() {
        assertThat(code(() -> Amounts.money("price", new BigDecimal("0.30000000000000004"), "USD")))
                .startsWith("SCALE_EXCEEDS_POLICY");
        assertThat(code(() -> Amounts.money("price", new BigDecimal("1.5"), "JPY")))
                .startsWith("SCALE_EXCEEDS_POLICY");
        assertThat(Amounts.money("price", new BigDecimal("1.005"), "BHD").amount())
                .isEqualByComparingTo("1.005");
        assertThat(code(() -> Amounts.positiveMoney("price", BigDecimal.ZERO, "USD")))
                .startsWith("NOT_POSITIVE");
    }

    @Test
    void idsRejectTheKeyDelimiterAndUnknownOrMissingFieldsAreNamed() {
        assertThat(code(() -> of("{\"id\":\"a#b\"}").id("id")))
                .startsWith("INVALID_ID")
                .contains("'#'");
        assertThat(code(() -> of("{}").id("id")))
                .isEqualTo("MISSING_FIELD: required field 'id' is missing");
        Fields f = of("{\"id\":\"x\",\"zzz\":1}");
        f.id("id");
        assertThat(code(f::rejectUnknown)).isEqualTo("UNKNOWN_FIELD: unknown field 'zzz'");
        assertThatThrownBy(() -> StrictJson.parseObject("{\"a\":1,\"a\":2}".getBytes()))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("Duplicate field");
        assertThatThrownBy(() -> StrictJson.parseObject(new byte[StrictJson.MAX_BODY_BYTES + 1]))
                .isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));
    }
}
