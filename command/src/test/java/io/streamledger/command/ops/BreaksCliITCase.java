package io.streamledger.command.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.PostingKey;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The AP15 CLI end to end against the local endpoint: list → show → resolve (unverifiable evidence
 * refused in one line, stale, then ok).
 */
class BreaksCliITCase {

    private BreakTable stack;

    @BeforeEach
    void start() {
        stack = new BreakTable("cli");
        stack.put(
                "t1",
                "LEDGER-CHECK-2026-11-30",
                "TXN_UNBALANCED:t1:x1",
                "TXN_UNBALANCED",
                "LEDGER_CHECK",
                Instant.parse("2026-11-30T08:00:00Z"),
                "x1",
                "{\"sum.CASH:USD\":\"0.01\"}");
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    private record Run(int code, String out) {}

    private Run cli(String... args) {
        List<String> all =
                new ArrayList<>(
                        List.of(
                                "--endpoint",
                                stack.endpoint.endpoint().toString(),
                                "--access-key",
                                "local",
                                "--secret-key",
                                "local",
                                "--table-prefix",
                                stack.prefix));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                BreaksCli.run(
                        all.toArray(String[]::new),
                        new PrintWriter(out, true),
                        new PrintWriter(err, true));
        return new Run(code, out + err.toString());
    }

    @Test
    void listShowResolve() {
        Run list = cli("list", "--tenant", "t1", "--cutoff", "2026-11-30T12:00:00Z");
        assertThat(list.code()).isZero();
        assertThat(list.out())
                .contains(
                        "2026-11-30T09:00:00.000Z OPEN LEDGER-CHECK-2026-11-30/TXN_UNBALANCED:t1:x1")
                .contains("-- end");

        Run show =
                cli(
                        "show",
                        "--tenant",
                        "t1",
                        "--batch",
                        "LEDGER-CHECK-2026-11-30",
                        "--id",
                        "TXN_UNBALANCED:t1:x1");
        assertThat(show.code()).isZero();
        assertThat(show.out()).contains("sum.CASH:USD").contains("version=1");

        PostingKey fix =
                stack.posting(
                        "t1", "ACC-1", "t-fix1", "0.01", Instant.parse("2026-11-30T10:00:00Z"));
        Run unverified =
                cli(
                        "resolve",
                        "--tenant",
                        "t1",
                        "--batch",
                        "LEDGER-CHECK-2026-11-30",
                        "--id",
                        "TXN_UNBALANCED:t1:x1",
                        "--expected-status",
                        "OPEN",
                        "--expected-version",
                        "1",
                        "--resolver",
                        "alice",
                        "--txn",
                        "t-other",
                        "--posting-key",
                        fix.pk() + "|" + fix.sk(),
                        "--evidence",
                        "reversal r-1");
        assertThat(unverified.code()).isEqualTo(BreaksCli.REFUSED);
        assertThat(unverified.out())
                .contains("refused: posting " + fix.sk() + " belongs to t-fix1, which is not cited")
                .doesNotContain("\tat ");

        String[] resolve = {
            "resolve",
            "--tenant",
            "t1",
            "--batch",
            "LEDGER-CHECK-2026-11-30",
            "--id",
            "TXN_UNBALANCED:t1:x1",
            "--expected-status",
            "OPEN",
            "--expected-version",
            "5",
            "--resolver",
            "alice",
            "--evidence",
            "reversal r-1",
            "--txn",
            "t-fix1",
            "--posting-key",
            fix.pk() + "|" + fix.sk()
        };
        assertThat(cli(resolve).code()).isEqualTo(2);
        resolve[10] = "1";
        Run ok = cli(resolve);
        assertThat(ok.code()).as(ok.out()).isZero();
        assertThat(ok.out()).contains("DONE").contains("RESOLVED");
        assertThat(cli("list", "--tenant", "t1", "--cutoff", "2026-11-30T12:00:00Z").out())
                .doesNotContain("TXN_UNBALANCED");
    }
}
