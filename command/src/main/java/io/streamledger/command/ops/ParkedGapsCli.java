package io.streamledger.command.ops;

import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.command.api.StrictJson;
import io.streamledger.model.deadletter.ParkedGapStatus;
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
 * Operators' parked-gap CLI (CS07), a thin client of {@link ParkedGapRepository}: {@code list},
 * {@code show} and {@code skip} (the audited request the job applies). Exit codes as {@link
 * DeadLettersCli}: 0 done, 1 not found, 2 conflict (stale status or version), 3 refused, 64 usage.
 */
@Command(
        name = "parkedgaps",
        mixinStandardHelpOptions = true,
        subcommands = {
            ParkedGapsCli.List.class,
            ParkedGapsCli.Show.class,
            ParkedGapsCli.Skip.class
        },
        description = "List and show parked gaps; request the audited skip of a missing version.")
public final class ParkedGapsCli {

    @Spec CommandLine.Model.CommandSpec spec;

    @Mixin OpsConnection connection;

    @Option(names = "--tenant", required = true, scope = CommandLine.ScopeType.INHERIT)
    String tenant;

    @Option(
            names = "--verbose",
            description = "print stack traces of refusals",
            scope = CommandLine.ScopeType.INHERIT)
    boolean verbose;

    public static void main(String[] args) {
        System.exit(
                run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        ParkedGapsCli top = new ParkedGapsCli();
        return new CommandLine(top)
                .setOut(out)
                .setErr(err)
                .setExecutionExceptionHandler(
                        OpsConnection.refusals(() -> top.verbose, DeadLettersCli.REFUSED))
                .execute(args);
    }

    ParkedGapRepository repo(DynamoDbClient ddb) {
        return new ParkedGapRepository(
                ddb,
                connection.table(Tables.DEAD_LETTER),
                connection.table(Tables.RECONCILIATION),
                Clock.systemUTC());
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    @Command(name = "list", description = "One job's parked gaps, key order, one page.")
    static final class List implements Callable<Integer> {
        @ParentCommand ParkedGapsCli top;

        @Option(names = "--job", required = true)
        String job;

        @Option(names = "--status")
        ParkedGapStatus status;

        @Option(names = "--cursor")
        String cursor;

        @Option(names = "--limit", defaultValue = "50")
        int limit;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = top.connection.client()) {
                ParkedGapRepository.Page p =
                        top.repo(ddb).list(top.tenant, job, status, limit, cursor);
                for (ParkedGapItems.View v : p.items()) {
                    top.out()
                            .printf(
                                    "%s %s v%d key=%s missing=%d parked=%d%s since=%s sla=%s%n",
                                    v.ref(),
                                    v.status(),
                                    v.version(),
                                    v.sourceKey(),
                                    v.missingVersion(),
                                    v.parkedCount(),
                                    v.parkedVersions(),
                                    v.firstParkedAt(),
                                    v.slaDeadline());
                }
                top.out().println(p.cursor() == null ? "-- end" : "-- cursor " + p.cursor());
                return 0;
            }
        }
    }

    @Command(name = "show", description = "One parked gap as JSON (strong read).")
    static final class Show implements Callable<Integer> {
        @ParentCommand ParkedGapsCli top;

        @Option(names = "--id", required = true, description = "job:id")
        String id;

        @Override
        public Integer call() throws Exception {
            try (DynamoDbClient ddb = top.connection.client()) {
                Optional<ParkedGapItems.View> v = top.repo(ddb).show(top.tenant, id);
                if (v.isEmpty()) {
                    top.err().println("refused: no such parked gap " + id);
                    return DeadLettersCli.NOT_FOUND;
                }
                top.out()
                        .println(
                                StrictJson.MAPPER.writeValueAsString(
                                        ParkedGapRoutes.entry(v.get())));
                return 0;
            }
        }
    }

    @Command(
            name = "skip",
            description =
                    "Request the skip of the gap's missing version (audited); the job applies it.")
    static final class Skip implements Callable<Integer> {
        @ParentCommand ParkedGapsCli top;

        @Option(names = "--id", required = true, description = "job:id")
        String id;

        @Option(names = "--expected-version", description = "default: the version read now")
        Long version;

        @Option(names = "--reason", required = true)
        String reason;

        @Option(names = "--actor", description = "who acts (audit); default cli:<os user>")
        String actor;

        @Override
        public Integer call() throws Exception {
            try (DynamoDbClient ddb = top.connection.client()) {
                ParkedGapRepository.Result r =
                        top.repo(ddb)
                                .requestSkip(
                                        top.tenant,
                                        id,
                                        version,
                                        DeadLettersCli.actor(actor),
                                        reason);
                switch (r.outcome()) {
                    case DONE -> {
                        top.out()
                                .println(
                                        StrictJson.MAPPER.writeValueAsString(
                                                ParkedGapRoutes.entry(r.current())));
                        return 0;
                    }
                    case NOT_FOUND -> {
                        top.err().println("refused: no such parked gap " + id);
                        return DeadLettersCli.NOT_FOUND;
                    }
                    default -> {
                        top.err()
                                .println(
                                        "refused: parked gap is "
                                                + r.current().status()
                                                + " at version "
                                                + r.current().version()
                                                + "; only an OPEN gap at the expected version"
                                                + " can be skipped");
                        return DeadLettersCli.CONFLICT;
                    }
                }
            }
        }
    }
}
