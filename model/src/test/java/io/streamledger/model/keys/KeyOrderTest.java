package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DynamoDB string order (UTF-8 bytes) for the merges of several Query streams. */
class KeyOrderTest {

    static int utf8(String a, String b) {
        return Integer.signum(
                Arrays.compareUnsigned(
                        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void agreesWithUtf8BytesWhereUtf16OrderDoesNot() {
        String supplementary = "TRADE#x#\uD83D\uDE00"; // U+1F600
        String privateUse = "TRADE#x#\uE000";
        assertThat(supplementary.compareTo(privateUse)).isNegative(); // UTF-16 order
        assertThat(KeyOrder.compare(supplementary, privateUse)).isPositive();
        List<String> samples =
                List.of(
                        "",
                        "a",
                        "ab",
                        "b",
                        "TRADE#1#a",
                        "TRADE#1#b",
                        "\uE000",
                        "\uD83D\uDE00",
                        "é");
        for (String a : samples) {
            for (String b : samples) {
                assertThat(Integer.signum(KeyOrder.compare(a, b)))
                        .as(a + " vs " + b)
                        .isEqualTo(utf8(a, b));
            }
        }
    }
}
