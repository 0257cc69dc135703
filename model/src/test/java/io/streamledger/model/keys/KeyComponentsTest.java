package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** IDX01–IDX19: components are validated and '#' is rejected, never escaped. */
class KeyComponentsTest {

    @Test
    void acceptsOrdinaryAndUnicodeComponents() {
        assertThat(KeyComponents.require("id", "o-42")).isEqualTo("o-42");
        assertThat(KeyComponents.require("id", "\u00fcber-\uD83D\uDE00")).isNotEmpty();
        assertThat(KeyComponents.require("id", "x".repeat(256))).hasSize(256);
    }

    @Test
    void rejectsSeparatorNamingTheComponent() {
        assertThatThrownBy(() -> new OrderKey("t1", "o#42"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class,
                        e -> {
                            assertThat(e.component()).isEqualTo("id");
                            assertThat(e.getMessage())
                                    .contains("component 'id'")
                                    .contains("separator '#' at index 1");
                        });
        assertThatThrownBy(() -> new OrderKey("t#1", "o"))
                .isInstanceOfSatisfying(
                        KeyFormatException.class, e -> assertThat(e.component()).isEqualTo("t"));
    }

    @Test
    void rejectsEmptyNullTooLongControlAndBrokenSurrogates() {
        assertThatThrownBy(() -> KeyComponents.require("a", ""))
                .hasMessageContaining("component 'a': is empty");
        assertThatThrownBy(() -> KeyComponents.require("a", null))
                .hasMessageContaining("component 'a': is null");
        assertThatThrownBy(() -> KeyComponents.require("a", "x".repeat(257)))
                .hasMessageContaining("257 chars");
        assertThatThrownBy(() -> KeyComponents.require("a", "x\ny"))
                .hasMessageContaining("control character U+000A");
        assertThatThrownBy(() -> KeyComponents.require("a", "x\u0000"))
                .hasMessageContaining("U+0000");
        assertThatThrownBy(() -> KeyComponents.require("a", "x\uD800"))
                .hasMessageContaining("unpaired surrogate");
        assertThatThrownBy(() -> KeyComponents.require("a", "\uDC00x"))
                .hasMessageContaining("unpaired surrogate");
    }
}
