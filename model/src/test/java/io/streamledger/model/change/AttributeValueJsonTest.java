package io.streamledger.model.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The SDK-free attribute-value model in DynamoDB JSON wire form. */
class AttributeValueJsonTest {

    private static JsonNode json(String text) {
        return JsonFields.parse(text);
    }

    @Test
    void readsEveryTypeAndWritesItBackIdentically() {
        String wire =
                "{\"s\":{\"S\":\"x\"},\"n\":{\"N\":\"10.50\"},\"b\":{\"B\":\"AQID\"},"
                        + "\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true},"
                        + "\"l\":{\"L\":[{\"S\":\"a\"},{\"N\":\"1\"}]},"
                        + "\"m\":{\"M\":{\"k2\":{\"S\":\"v\"},\"k1\":{\"N\":\"-0.001\"}}},"
                        + "\"ss\":{\"SS\":[\"b\",\"a\"]},\"ns\":{\"NS\":[\"1\",\"2.5\"]},"
                        + "\"bs\":{\"BS\":[\"AQ==\",\"Ag==\"]}}";
        Map<String, AttributeValue> item = AttributeValueJson.readItem(json(wire), "$");
        assertThat(item.keySet())
                .containsExactly("s", "n", "b", "t", "z", "l", "m", "ss", "ns", "bs");
        assertThat(((AttributeValue.N) item.get("n")).text()).isEqualTo("10.50");
        assertThat(((AttributeValue.B) item.get("b")).value()).containsExactly(1, 2, 3);
        assertThat(((AttributeValue.M) item.get("m")).values().keySet())
                .containsExactly("k2", "k1");
        assertThat(AttributeValueJson.writeItem(item)).isEqualTo(json(wire));
    }

    @Test
    void numbersStayExactAndCompareNumerically() {
        AttributeValue.N n = AttributeValue.n("0.1000000000000000055511151231257827");
        assertThat(n.text()).isEqualTo("0.1000000000000000055511151231257827");
        assertThat(AttributeValue.n("1.50")).isEqualTo(AttributeValue.n("1.5"));
        assertThat(AttributeValue.n("1.50").hashCode())
                .isEqualTo(AttributeValue.n("1.5").hashCode());
    }

    @Test
    void binaryIsImmutable() {
        byte[] bytes = {1, 2};
        AttributeValue.B b = new AttributeValue.B(bytes);
        bytes[0] = 9;
        b.value()[1] = 9;
        assertThat(b.value()).containsExactly(1, 2);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {
                "{\"a\":\"x\"}; $.a; expected an object",
                "{\"a\":{}}; $.a; exactly one type descriptor",
                "{\"a\":{\"S\":\"x\",\"N\":\"1\"}}; $.a; exactly one type descriptor",
                "{\"a\":{\"Q\":\"x\"}}; $.a; unknown attribute type descriptor 'Q'",
                "{\"a\":{\"S\":1}}; $.a.S; expected a string",
                "{\"a\":{\"N\":\"NaN\"}}; $.a.N; NOT_FINITE",
                "{\"a\":{\"N\":1.5}}; $.a.N; expected a string",
                "{\"a\":{\"N\":\"1e999\"}}; $.a.N; OUT_OF_RANGE",
                "{\"a\":{\"N\":\"1e99999\"}}; $.a.N; MALFORMED",
                "{\"a\":{\"B\":\"***\"}}; $.a.B; Illegal base64",
                "{\"a\":{\"BOOL\":\"true\"}}; $.a.BOOL; expected a boolean",
                "{\"a\":{\"NULL\":false}}; $.a.NULL; expected true",
                "{\"a\":{\"L\":{}}}; $.a.L; expected an array",
                "{\"a\":{\"L\":[{\"S\":1}]}}; $.a.L[0].S; expected a string",
                "{\"a\":{\"M\":[]}}; $.a.M; expected an object",
                "{\"a\":{\"M\":{\"k\":{\"N\":\"x\"}}}}; $.a.M.k.N; MALFORMED",
                "{\"a\":{\"SS\":[]}}; $.a.SS; must not be empty",
                "{\"a\":{\"SS\":[\"x\",\"x\"]}}; $.a.SS; duplicate",
                "{\"a\":{\"NS\":[\"1\",\"1.0\"]}}; $.a.NS; duplicate",
                "{\"a\":{\"SS\":[1]}}; $.a.SS[0]; expected a string",
                "{\"a\":{\"BS\":[\"AQ==\",\"AQ==\"]}}; $.a.BS; duplicate",
                "{\"a\":null}; $.a; is missing",
            })
    void malformedValuesNameTheirPath(String wire, String path, String message) {
        assertThatThrownBy(() -> AttributeValueJson.readItem(json(wire), "$"))
                .isInstanceOfSatisfying(
                        ChangeRecordParseException.class,
                        e -> {
                            assertThat(e.path()).isEqualTo(path);
                            assertThat(e.getMessage()).contains(message);
                        });
    }

    @Test
    void nestingIsBounded() {
        String deep = "{\"S\":\"x\"}";
        for (int i = 0; i < 40; i++) {
            deep = "{\"L\":[" + deep + "]}";
        }
        String wire = "{\"a\":" + deep + "}";
        assertThatThrownBy(() -> AttributeValueJson.readItem(json(wire), "$"))
                .isInstanceOf(ChangeRecordParseException.class)
                .hasMessageContaining("nested deeper than 32");
    }

    @Test
    void invalidJsonIsAParseErrorAtTheRoot() {
        for (String bad : List.of("{", "", "{\"a\":1} x", "{\"a\":1,\"a\":2}")) {
            assertThatThrownBy(() -> JsonFields.parse(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            ChangeRecordParseException.class,
                            e -> assertThat(e.path()).isEqualTo("$"));
        }
    }
}
