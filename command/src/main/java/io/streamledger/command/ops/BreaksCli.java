package io.streamledger.command.ops;

import io.streamledger.aws.items.BreakStatus;
import io.streamledger.aws.items.BreakView;
import io.streamledger.model.table.TableNaming;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
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
 * Finance Ops' AP15 break CLI, a thin client of {@link BreakService} (the code behind the HTTP
 * routes): {@code list} due breaks with one merged cursor, {@code show} one, {@code resolve} with
 * ledger-verified evidence, {@code escalate} overdue ones; every change is audited. Exit codes: 0
 * done, 1 not found, 2 conflict (stale status/version), 3 refused (evidence or argument), 64 usage.
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

    public static void main(String[] args) {
        System.exit(
                run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        BreaksCli top = new BreaksCli();
        return new CommandLine(top)
                .setOut(out)
                .setErr(err)
                .setExecutionExceptionHandler(OpsConnection.refusals(() -> top.verbose, REFUSED))
                .execute(args);
    }

    DynamoDbClient client() {
        return connection.client();
    }

    BreakService service(DynamoDbClient ddb) {
        return OpsApi.breakService(ddb, new TableNaming(connection.prefix), Clock.systemUTC());
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    static int exit(BreakRepository.Result r, PrintWriter out) {
        out.println(r.outcome() + " " + (r.current() == null ? "" : r.current()));
        return switch (r.outcome()) {
            case DONE -> 0;
            case NOT_FOUND -> 1;
            case CONFLICT -> 2;
        };
    }

    @Command(name = "list", description = "Due breaks (dueAt <= cutoff) across all shards.")
    static final class List implements Callable<Integer> {
        @ParentCommand BreaksCli top;

        @Option(names = "--cutoff", description = "ISO instant; default now")
        String cutoff;

        @Option(names = "--status", description = "OPEN or ESCALATED; default both")
        BreakStatus status;

        @Option(names = "--cursor")
        String cursor;

        @Option(names = "--limit", defaultValue = "50")
        int limit;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = top.client()) {
                Instant at = cutoff == null ? null : Instant.parse(cutoff);
                BreakRepository.Page p =
                        top.service(ddb).list(top.tenant, status, at, cursor, limit);
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
                Optional<BreakView> v = top.service(ddb).show(top.tenant, new BreakRef(batch, id));
                if (v.isEmpty()) {
                    top.out().println("not found");
                    return 1;
                }
                top.out().println(v.get());
                return 0;
            }
        }
    }

    @Command(
            name = "resolve",
            description =
                    "Conditional resolve with evidence the ledger must bear out (rule per reason:"
                            + " see command/README.md).")
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

        @Option(names = "--resolver", required = true, description = "audited as cli:<name>")
        String resolver;

        @Option(names = "--txn", description = "a cited ledger txnId (repeatable)")
        java.util.List<String> txnIds = new ArrayList<>();

        @Option(
                names = "--posting-key",
                description = "a cited IDX10 posting as PK|SK (repeatable)")
        java.util.List<String> postingKeys = new ArrayList<>();

        @Option(names = "--authority-version", description = "the cited AP12 authority version")
        Long authorityVersion;

        @Option(
                names = {"--note", "--evidence"},
                required = true,
                description = "what was done and why")
        String note;

        @Override
        public Integer call() {
            java.util.List<BreakEvidence.PostingKey> keys = new ArrayList<>();
            for (String k : postingKeys) {
                int bar = k.indexOf('|');
                if (bar <= 0 || bar == k.length() - 1) {
                    throw new IllegalArgumentException("--posting-key must be PK|SK, got " + k);
                }
                keys.add(new BreakEvidence.PostingKey(k.substring(0, bar), k.substring(bar + 1)));
            }
            BreakEvidence evidence = new BreakEvidence(txnIds, keys, authorityVersion, note);
            try (DynamoDbClient ddb = top.client()) {
                return exit(
                        top.service(ddb)
                                .resolve(
                                        top.tenant,
                                        new BreakRef(batch, id),
                                        status,
                                        version,
                                        evidence,
                                        OpsActor.named(resolver)),
                        top.out());
            }
        }
    }

    @Command(name = "escalate", description = "Escalate OPEN breaks whose due time has passed.")
    static final class Escalate implements Callable<Integer> {
        @ParentCommand BreaksCli top;

        @Option(names = "--owner", required = true)
        String owner;

        @Option(names = "--actor", description = "audited operator name; default cli:<os user>")
        String actor;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = top.client()) {
                OpsActor who =
                        OpsActor.named(
                                actor != null ? actor : "cli:" + System.getProperty("user.name"));
                top.out()
                        .println(
                                "escalated "
                                        + top.service(ddb).escalateOverdue(top.tenant, owner, who));
                return 0;
            }
        }
    }
}
