package io.streamledger.aws.items;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Item sizes (AMP04) count UTF-8 bytes exactly as the encoder would produce them. */
class AvTest {

    @Test
    void utf8LengthMatchesTheEncoder() {
        for (String s :
                List.of(
                        "",
                        "ORDER#o-1",
                        "café",
                        "€ 12,50",
                        "日本語",
                        "emoji \uD83D\uDE00 pair",
                        "lone \uD800 high",
                        "lone \uDC00 low",
                        "end \uD83D")) {
            assertThat(Av.utf8(s)).as(s).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
        }
    }
}
