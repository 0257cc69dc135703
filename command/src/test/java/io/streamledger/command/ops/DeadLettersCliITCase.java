package io.streamledger.command.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterRef;
import io.streamledger.model.deadletter.DeadLetterReason;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter CLI end to end against the local endpoint (CS08): list → show → discard (stale,
 * then ok) → replay refused; refusals are one line with a non-zero exit, no stack trace.
 */
class DeadLettersCliITCase {

    private DeadLetterTable stack;
    private String id;

    @BeforeEach
    void start() {
        stack = new DeadLetterTable("dlc");
        DeadLetterEntry e =
                stack.put(
                        "t1",
                        "posting",
                        DeadLetterReason.UNPARSEABLE_RECORD,
                        "arn/shard-1/77",
                        Instant.parse("2026-12-01T08:00:00Z"));
        id = DeadLetterRef.format(e.job(), e.reason(), e.id());
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    private record Run(int code, String out, String err) {}

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
                DeadLettersCli.run(
                        all.toArray(String[]::new),
                        new PrintWriter(out, true),
                        new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void listShowDiscardThenReplayIsRefused() {
        Run list = cli("list", "--tenant", "t1", "--job", "posting");
        assertThat(list.code()).isZero();
        assertThat(list.out()).contains(id + " OPEN v1 attempts=1").contains("-- end");

        Run show = cli("show", "--tenant", "t1", "--id", id);
        assertThat(show.code()).isZero();
        assertThat(show.out()).contains("\"sourcePosition\":\"stream/shard-0/arn/shard-1/77\"");

        Run stale =
                cli(
                        "discard",
                        "--tenant",
                        "t1",
                        "--id",
                        id,
                        "--expected-version",
                        "5",
                        "--reason",
                        "noise",
                        "--actor",
                        "alice");
        assertThat(stale.code()).isEqualTo(DeadLettersCli.CONFLICT);
        assertThat(stale.err().strip())
                .isEqualTo(
                        "refused: dead letter is OPEN at version 1; only an OPEN entry at the expected"
                                + " version can change");

        Run discard =
                cli(
                        "discard",
                        "--tenant",
                        "t1",
                        "--id",
                        id,
                        "--expected-version",
                        "1",
                        "--reason",
                        "noise",
                        "--actor",
                        "alice");
        assertThat(discard.code()).isZero();
        assertThat(discard.out())
                .contains("\"status\":\"DISCARDED\"")
                .contains("\"actor\":\"alice\"");
        assertThat(BreakTable.audits(stack.ddb, stack.auditTable))
                .singleElement()
                .satisfies(
                        a -> {
                            assertThat(a.action()).isEqualTo("DISCARD");
                            assertThat(a.role()).isEqualTo("cli");
                            assertThat(a.keyId()).isEqualTo("alice");
                        });

        Run replay = cli("replay", "--tenant", "t1", "--id", id);
        assertThat(replay.code()).isEqualTo(DeadLettersCli.CONFLICT);
        assertThat(cli("show", "--tenant", "t1", "--id", id).out()).contains("\"version\":2");
    }

    @Test
    void refusalsAreOneLineWithoutStackTraceUnlessVerbose() {
        Run bad = cli("show", "--tenant", "t1", "--id", "garbage");
        assertThat(bad.code()).isEqualTo(DeadLettersCli.REFUSED);
        assertThat(bad.err().strip().lines()).hasSize(1);
        assertThat(bad.err())
                .startsWith("refused: IllegalArgumentException: dead-letter id must be");

        Run verbose = cli("show", "--tenant", "t1", "--id", "garbage", "--verbose");
        assertThat(verbose.err().lines().count()).isGreaterThan(1);
        assertThat(verbose.err()).contains("at io.streamledger");

        Run missing =
                cli(
                        "show",
                        "--tenant",
                        "t1",
                        "--id",
                        DeadLetterRef.format(
                                "posting", DeadLetterReason.LATE_RECORD, "0".repeat(32)));
        assertThat(missing.code()).isEqualTo(DeadLettersCli.NOT_FOUND);

        Run badCursor = cli("list", "--tenant", "t1", "--job", "posting", "--cursor", "zz");
        assertThat(badCursor.code()).isEqualTo(DeadLettersCli.REFUSED);
        assertThat(badCursor.err().strip())
                .isEqualTo("refused: cursor is not a cursor issued by this service");
    }
}
