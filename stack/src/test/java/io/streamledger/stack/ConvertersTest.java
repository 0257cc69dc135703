package io.streamledger.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The launcher's flag values (config file) and their bad input. */
class ConvertersTest {

    @TempDir Path dir;

    @Test
    void durationsInShortAndIsoForm() {
        assertThat(Converters.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Converters.parseDuration("15s")).isEqualTo(Duration.ofSeconds(15));
        assertThat(Converters.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Converters.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Converters.parseDuration("PT1M")).isEqualTo(Duration.ofMinutes(1));
        assertThatThrownBy(() -> Converters.parseDuration("soon"))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageContaining("'soon' is not a duration");
    }

    @Test
    void ratesPerSecondOrMinute() {
        assertThat(Converters.parseRate("50")).isEqualTo(50.0);
        assertThat(Converters.parseRate("50/s")).isEqualTo(50.0);
        assertThat(Converters.parseRate("1200/m")).isEqualTo(20.0);
        for (String bad : new String[] {"0", "-5/s", "fast", "1e999"}) {
            assertThatThrownBy(() -> Converters.parseRate(bad))
                    .as(bad)
                    .isInstanceOf(CommandLine.TypeConversionException.class)
                    .hasMessageContaining("is not a positive rate");
        }
    }

    @Test
    void defaultsThenConfigFileThenFlags() throws Exception {
        String[] none = {};
        StackMain defaults = parse(none);
        assertThat(defaults.duration).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.rate).isEqualTo(50.0);
        assertThat(defaults.uiPort).isEqualTo(8081);
        assertThat(defaults.transport).isEqualTo(StackMain.Transport.dynamodb_streams);
        assertThat(defaults.checkpointInterval).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.stateBackend).isEqualTo("hashmap");
        assertThat(defaults.prometheusPort).isNull();
        assertThat(defaults.reset).isFalse();

        Path cfg = dir.resolve("demo.properties");
        Files.writeString(
                cfg, "rate=20/s\nduration=2m\nstate-backend=rocksdb\ntransport=kinesis\n");
        StackMain fromFile = parse("--config", cfg.toString(), "--rate", "5");
        assertThat(fromFile.duration).isEqualTo(Duration.ofMinutes(2));
        assertThat(fromFile.stateBackend).isEqualTo("rocksdb");
        assertThat(fromFile.transport).isEqualTo(StackMain.Transport.kinesis);
        assertThat(fromFile.rate).as("a flag wins over the file").isEqualTo(5.0);

        assertThatThrownBy(() -> parse("--config", dir.resolve("missing").toString()))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("no such file");
    }

    private static StackMain parse(String... args) {
        CommandLine cl = StackMain.commandLine(args);
        cl.parseArgs(args);
        return cl.getCommand();
    }
}
