package io.streamledger.command.ops;

import io.streamledger.aws.items.BreakStatus;
import io.streamledger.model.table.Tables;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Finance Ops' AP15 break CLI over {@link BreakRepository}: {@code list} due breaks with one merged
 * cursor, {@code show} one with its evidence, {@code resolve} by conditional write, {@code
 * escalate} overdue ones. Exit codes: 0 done, 1 not found, 2 conflict (stale status/version), 64
 * usage.
 */
@Command(
        name = "breaks",
        mixinStandardHelpOptions = true,
        subcommands = {
            BreaksCli.List.class,
            BreaksCli.Show.class,
            BreaksCli.Resolve.class,
            BreaksCli.Escalate.class
        },
        description = "List, show, resolve and escalate reconciliation breaks (AP15).")
public final class BreaksCli {

    @Spec CommandLine.Model.CommandSpec spec;

    @Mixin OpsConnection connection;

    @Option(names = "--tenant", required = true, scope = CommandLine.ScopeType.INHERIT)
    String tenant;

    public static void main(String[] args) {
        System.exit(
                run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return new CommandLine(new BreaksCli()).setOut(out).setErr(err).execute(args);
    }

    DynamoDbClient client() {
        return connection.client();
    }

    BreakRepository repo(DynamoDbClient ddb) {
        return new BreakRepository(ddb, connection.table(Tables.RECONCILIATION), Clock.systemUTC());
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    @Command(name = "list", description = "Due breaks (dueAt <= cutoff) across all shards.")
    static final class List implements Callable<Integer> {
        @ParentCommand BreaksCli top;

        @Option(names = "--cutoff", description = "ISO instant; default now")
        String cutoff;

        @Option(names = "--cursor")
        String cursor;

        @Option(names = "--limit", defaultValue = "50")
        int limit;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = top.client()) {
                Instant at = cutoff == null ? Instant.now() : Instant.parse(cutoff);
                BreakRepository.Page p = top.repo(ddb).listDue(top.tenant, at, cursor, limit);
                for (DueBreak d : p.items()) {
                    top.out()
                            .printf(
                                    "%s %s %s/%s%n",
                                    d.dueAt(), d.status(), d.batchId(), d.breakId());
                }
                top.out().println(p.cursor() == null ? "-- end" : "-- cursor " + p.cursor());
                return 0;
            }
        }
    }

    @Command(name = "show", description = "One break with its evidence (strong read).")
    static final class Show implements Callable<Integer> {
        @ParentCommand BreaksCli top;

        @Option(names = "--batch", required = true)
        String batch;

        @Option(names = "--id", required = true)
        String id;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = top.client()) {
                var v = top.repo(ddb).get(top.tenant, batch, id);
                if (v.isEmpty()) {
                    top.out().println("not found");
                    return 1;
                }
                top.out().println(v.get());
                return 0;
            }
        }
    }

    @Command(name = "resolve", description = "Conditional resolve with evidence.")
    static final class Resolve implements Callable<Integer> {
        @ParentCommand BreaksCli top;

        @Option(names = "--batch", required = true)
        String batch;

        @Option(names = "--id", required = true)
        String id;

        @Option(names = "--expected-status", required = true)
        BreakStatus status;

        @Option(names = "--expected-version", required = true)
        long version;

        @Option(names = "--resolver", required = true)
        String resolver;

        @Option(names = "--evidence", required = true)
        String evidence;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = top.client()) {
                BreakRepository.Result r =
                        top.repo(ddb)
                                .resolve(
                                        top.tenant, batch, id, status, version, resolver, evidence);
                top.out().println(r.outcome() + " " + (r.current() == null ? "" : r.current()));
                return switch (r.outcome()) {
                    case DONE -> 0;
                    case NOT_FOUND -> 1;
                    case CONFLICT -> 2;
                };
            }
        }
    }

    @Command(name = "escalate", description = "Escalate OPEN breaks whose due time has passed.")
    static final class Escalate implements Callable<Integer> {
        @ParentCommand BreaksCli top;

        @Option(names = "--owner", required = true)
        String owner;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = top.client()) {
                top.out().println("escalated " + top.repo(ddb).escalateOverdue(top.tenant, owner));
                return 0;
            }
        }
    }
}
