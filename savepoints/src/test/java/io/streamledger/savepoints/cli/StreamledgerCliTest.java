package io.streamledger.savepoints.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A refused runbook step (CS09) is one line and exit 3; its stack trace only with --verbose. */
class StreamledgerCliTest {

    @TempDir Path dir;

    private record Run(int code, String err) {}

    private Run run(String... args) {
        StringWriter err = new StringWriter();
        int code = StreamledgerCli.run(new PrintWriter(err, true), args);
        return new Run(code, err.toString());
    }

    private String[] bootstrapWithoutExport(String... extra) {
        String[] base = {
            "backfill",
            "bootstrap",
            "--export",
            dir.resolve("no-such-export").toString(),
            "--version",
            "2",
            "--savepoint",
            dir.resolve("sp").toString()
        };
        String[] all = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    @Test
    void aRefusalIsOneLineWithANonZeroExit() {
        Run r = run(bootstrapWithoutExport());
        assertThat(r.code()).isEqualTo(StreamledgerCli.REFUSED);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err())
                .startsWith("refused: ")
                .contains("no-such-export")
                .doesNotContain("\tat ");
    }

    @Test
    void verboseAddsTheStackTrace() {
        Run r = run(bootstrapWithoutExport("--verbose"));
        assertThat(r.code()).isEqualTo(StreamledgerCli.REFUSED);
        assertThat(r.err()).startsWith("refused: ").contains("\tat ");
    }
}
