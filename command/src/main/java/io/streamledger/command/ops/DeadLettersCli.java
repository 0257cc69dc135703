package io.streamledger.command.ops;

import io.streamledger.aws.deadletter.DeadLetterRef;
import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.command.api.StrictJson;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.table.Tables;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Operators' dead-letter CLI (CS08), a thin client of {@link DeadLetterRepository}: {@code list},
 * {@code show}, {@code replay} and {@code discard}. A refusal is one line on stderr (stack trace
 * only with {@code --verbose}); exit codes: 0 done, 1 not found, 2 conflict (stale status or
 * version), 3 refused (bad argument or cursor, AWS error), 64 usage.
 */
@Command(
        name = "deadletters",
        mixinStandardHelpOptions = true,
        subcommands = {
            DeadLettersCli.List.class,
            DeadLettersCli.Show.class,
            DeadLettersCli.Replay.class,
            DeadLettersCli.Discard.class
        },
        description = "List, show, replay and discard durable dead letters.")
public final class DeadLettersCli {

    static final int NOT_FOUND = 1;
    static final int CONFLICT = 2;
    static final int REFUSED = 3;

    @Spec CommandLine.Model.CommandSpec spec;

    @Mixin OpsConnection connection;

    @Option(names = "--tenant", required = true, scope = CommandLine.ScopeType.INHERIT)
    String tenant;

    @Option(
            names = "--verbose",
            description = "print stack traces of refusals",
            scope = CommandLine.ScopeType.INHERIT)
    boolean verbose;

    @Option(
            names = "--audit",
            negatable = true,
            defaultValue = "true",
            description = "write an ops audit item per change (needs the Reconciliation table)",
            scope = CommandLine.ScopeType.INHERIT)
    boolean auditTable;

    public static void main(String[] args) {
        System.exit(
                run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        DeadLettersCli top = new DeadLettersCli();
        return new CommandLine(top)
                .setOut(out)
                .setErr(err)
                .setExecutionExceptionHandler(OpsConnection.refusals(() -> top.verbose, REFUSED))
                .execute(args);
    }

    DynamoDbClient client() {
        return connection.client();
    }

    DeadLetterRepository repo(DynamoDbClient ddb) {
        return new DeadLetterRepository(
                ddb,
                connection.table(Tables.DEAD_LETTER),
                Clock.systemUTC(),
                auditTable ? connection.table(Tables.RECONCILIATION) : null);
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** The operator acting, for the audit entry: the OS user unless named. */
    static String actor(String named) {
        return named != null ? named : "cli:" + System.getProperty("user.name", "unknown");
    }

    int print(DeadLetterRepository.Result r) throws Exception {
        switch (r.outcome()) {
            case DONE -> {
                out().println(
                                StrictJson.MAPPER.writeValueAsString(
                                        DeadLetterDocs.entry(r.current())));
                return 0;
            }
            case NOT_FOUND -> {
                err().println("refused: no such dead letter");
                return NOT_FOUND;
            }
            case NOT_REPLAYABLE -> {
                err().println("refused: " + r.current().reason().replayRefusal());
                return CONFLICT;
            }
            default -> {
                DeadLetterView v = r.current();
                err().println(
                                "refused: dead letter is "
                                        + v.status()
                                        + " at version "
                                        + v.version()
                                        + "; only an OPEN entry at the expected version can change");
                return CONFLICT;
            }
        }
    }

    @Command(name = "list", description = "One job's entries, key order, one page.")
    static final class List implements Callable<Integer> {
        @ParentCommand DeadLettersCli top;

        @Option(names = "--job", required = true)
        String job;

        @Option(names = "--reason")
        DeadLetterReason reason;

        @Option(names = "--status")
        DeadLetterStatus status;

        @Option(names = "--cursor")
        String cursor;

        @Option(names = "--limit", defaultValue = "50")
        int limit;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = top.client()) {
                DeadLetterRepository.Page p =
                        top.repo(ddb).list(top.tenant, job, reason, status, limit, cursor);
                for (DeadLetterView v : p.items()) {
                    top.out()
                            .printf(
                                    "%s %s v%d attempts=%d first=%s %s%n",
                                    v.ref(),
                                    v.status(),
                                    v.version(),
                                    v.attempts(),
                                    v.firstSeen(),
                                    v.parkedBehind() == null
                                            ? v.detail()
                                            : "parked " + v.parkedBehind());
                }
                top.out().println(p.cursor() == null ? "-- end" : "-- cursor " + p.cursor());
                return 0;
            }
        }
    }

    @Command(name = "show", description = "One entry as JSON (strong read).")
    static final class Show implements Callable<Integer> {
        @ParentCommand DeadLettersCli top;

        @Option(names = "--id", required = true, description = "job:REASON:id")
        String id;

        @Override
        public Integer call() throws Exception {
            try (DynamoDbClient ddb = top.client()) {
                Optional<DeadLetterView> v =
                        top.repo(ddb).show(top.tenant, DeadLetterRef.parse(id));
                if (v.isEmpty()) {
                    top.err().println("refused: no such dead letter " + id);
                    return NOT_FOUND;
                }
                top.out()
                        .println(
                                StrictJson.MAPPER.writeValueAsString(
                                        DeadLetterDocs.entry(v.get())));
                return 0;
            }
        }
    }

    @Command(name = "replay", description = "Request a replay through the job's input path.")
    static final class Replay implements Callable<Integer> {
        @ParentCommand DeadLettersCli top;

        @Option(names = "--id", required = true, description = "job:REASON:id")
        String id;

        @Option(names = "--expected-version", description = "default: the version read now")
        Long version;

        @Option(names = "--actor", description = "who acts (audit); default cli:<os user>")
        String actor;

        @Option(names = "--note")
        String note;

        @Override
        public Integer call() throws Exception {
            try (DynamoDbClient ddb = top.client()) {
                return top.print(
                        top.repo(ddb)
                                .replay(
                                        top.tenant,
                                        DeadLetterRef.parse(id),
                                        version,
                                        actor(actor),
                                        note));
            }
        }
    }

    @Command(name = "discard", description = "Discard with a reason; the entry stays as audit.")
    static final class Discard implements Callable<Integer> {
        @ParentCommand DeadLettersCli top;

        @Option(names = "--id", required = true, description = "job:REASON:id")
        String id;

        @Option(names = "--expected-version", required = true)
        long version;

        @Option(names = "--reason", required = true)
        String reason;

        @Option(names = "--actor", description = "who acts (audit); default cli:<os user>")
        String actor;

        @Override
        public Integer call() throws Exception {
            try (DynamoDbClient ddb = top.client()) {
                return top.print(
                        top.repo(ddb)
                                .discard(
                                        top.tenant,
                                        DeadLetterRef.parse(id),
                                        version,
                                        actor(actor),
                                        reason));
            }
        }
    }
}
