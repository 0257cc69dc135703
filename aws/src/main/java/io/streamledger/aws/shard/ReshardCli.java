package io.streamledger.aws.shard;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code capacity reshard status|plan|start|drain|verify|cutover|retire}: the operator's side of
 * {@link Reshard} for the AP09 inbox receipts and the AP13 projection checkpoints.
 */
@Command(
        name = "reshard",
        mixinStandardHelpOptions = true,
        description =
                "Change N of the inbox (AP09) or checkpoint (AP13) shard map with a new"
                        + " shardMapVersion: plan, start, drain, verify, cutover, retire.",
        subcommands = {
            ReshardCli.Status.class,
            ReshardCli.Plan.class,
            ReshardCli.Start.class,
            ReshardCli.Drain.class,
            ReshardCli.Verify.class,
            ReshardCli.Cutover.class,
            ReshardCli.Retire.class
        })
public final class ReshardCli implements Runnable {
    /** Exit code of a step that did what it says. */
    public static final int OK = 0;

    /** Exit code of a refused step (wrong phase, not reconciled, lost race, lead too short). */
    public static final int REFUSED = 1;

    @Spec CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for in-process use (tests, other launchers). */
    public static CommandLine commandLine() {
        return new CommandLine(new ReshardCli());
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "choose a step: status, plan, start, drain, verify, cutover, retire");
    }

    /** Which map, where. */
    static final class Target {
        enum MapKind {
            inbox,
            checkpoints
        }

        @Option(
                names = "--map",
                required = true,
                description = "inbox (AP09 receipts) or checkpoints (AP13)")
        MapKind map;

        @Option(
                names = "--name",
                description = "consumer (inbox, default posting) or projection (default portfolio)")
        @Nullable
        String name;

        @Option(names = "--endpoint", description = "DynamoDB endpoint (default: AWS)")
        @Nullable
        URI endpoint;

        @Option(names = "--region", defaultValue = "us-east-1")
        String region;

        @Option(names = "--table-prefix", defaultValue = "", description = "deployment prefix")
        String prefix;

        Reshard open() {
            DynamoDbClient ddb =
                    DynamoDbClientConfig.forEndpoint(endpoint, region).build().buildSyncClient();
            TableNaming naming = new TableNaming(prefix);
            return map == MapKind.inbox
                    ? Reshard.inbox(
                            ddb, naming.physicalName(Tables.INBOX), name == null ? "posting" : name)
                    : Reshard.checkpoints(
                            ddb,
                            naming.physicalName(Tables.PROJECTION),
                            name == null ? "portfolio" : name);
        }
    }

    /** Shared body: run a step, print its state, map refusals to {@link #REFUSED}. */
    abstract static class Step implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Mixin Target target;

        abstract ShardMapState step(Reshard r, PrintWriter out) throws Exception;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try {
                ShardMapState s = step(target.open(), out);
                out.println(describe(s));
                out.flush();
                return OK;
            } catch (IllegalStateException
                    | IllegalArgumentException
                    | software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException
                            e) {
                out.flush();
                PrintWriter err = spec.commandLine().getErr();
                err.println("reshard " + spec.name() + ": refused: " + e.getMessage());
                err.flush();
                return REFUSED;
            } catch (Exception e) {
                throw new CommandLine.ExecutionException(spec.commandLine(), e.toString(), e);
            }
        }
    }

    /** One line per state field. */
    static String describe(ShardMapState s) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("map %s: %s, revision %d%n", s.map(), s.phase(), s.revision()));
        b.append("  current  ").append(map(s.current())).append('\n');
        if (s.previous() != null) {
            b.append("  previous ").append(map(s.previous())).append('\n');
            b.append("  admission watermark ").append(s.watermark()).append('\n');
        }
        if (s.drainedAt() != null) {
            b.append("  drained ").append(s.drainedAt());
            b.append(", old items kept until ").append(s.horizon()).append('\n');
        }
        return b.toString().stripTrailing();
    }

    private static String map(ShardMap m) {
        return "v" + m.shardMapVersion() + " N=" + m.shardCount() + " hash v" + m.hashVersion();
    }

    @Command(name = "status", description = "Print the durable shard-map state.")
    static final class Status extends Step {
        @Override
        ShardMapState step(Reshard r, PrintWriter out) {
            return r.status();
        }
    }

    /** The new N and the admission watermark of plan/start. */
    static final class Change {
        @Option(names = "--shards", required = true, description = "the new N")
        int shards;

        @Option(
                names = "--lead",
                defaultValue = "PT60S",
                description =
                        "the watermark's minimum distance from now (ISO-8601): more than the"
                                + " jobs' shard-map staleness bound (3 x refresh)")
        Duration lead;

        @Option(
                names = "--watermark",
                description = "admission watermark (ISO-8601 instant; default now + 2 x lead)")
        @Nullable
        Instant watermark;
    }

    @Command(name = "plan", description = "Print the state start would write; write nothing.")
    static final class Plan extends Step {
        @Mixin Change change;

        @Override
        ShardMapState step(Reshard r, PrintWriter out) {
            out.println("plan (not written):");
            return r.plan(change.shards, change.watermark, change.lead);
        }
    }

    @Command(
            name = "start",
            description = "New events admitted from the watermark on take the new version.")
    static final class Start extends Step {
        @Mixin Change change;

        @Override
        ShardMapState step(Reshard r, PrintWriter out) {
            return r.start(change.shards, change.watermark, change.lead);
        }
    }

    @Command(
            name = "drain",
            description =
                    "Wait until the old version stops changing after the watermark (checkpoints:"
                            + " copied forward) and record the drain and the dedupe horizon.")
    static final class Drain extends Step {
        @Option(
                names = "--settle",
                defaultValue = "PT30S",
                description = "quiet period: longer than the jobs' end-to-end lag")
        Duration settle;

        @Option(
                names = "--horizon",
                defaultValue = "P30D",
                description = "keep old items this long (>= receipt retention / replay horizon)")
        Duration horizon;

        @Option(names = "--timeout", defaultValue = "PT30M")
        Duration timeout;

        @Override
        ShardMapState step(Reshard r, PrintWriter out) throws InterruptedException {
            return r.drain(settle, horizon, timeout);
        }
    }

    /** The event ids that must have a receipt. */
    static final class Expect {
        @Option(
                names = "--expect",
                paramLabel = "FILE",
                description = "event ids (one a line) that must have a receipt (inbox)")
        @Nullable
        Path file;

        @Nullable
        List<String> ids() throws IOException {
            if (file == null) {
                return null;
            }
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty())
                    .toList();
        }
    }

    @Command(
            name = "verify",
            description =
                    "Reconcile both maps: counts per shard, misplaced, duplicated, misrouted,"
                            + " missing, not carried forward; exit 1 unless reconciled.")
    static final class Verify extends Step {
        @Mixin Expect expect;

        @Override
        ShardMapState step(Reshard r, PrintWriter out) throws IOException {
            ReshardReport report = r.reconcile(expect.ids());
            out.print(report.render());
            if (!report.clean()) {
                throw new IllegalStateException("not reconciled");
            }
            return r.status();
        }
    }

    @Command(name = "cutover", description = "Switch readers to the new map (drained, reconciled).")
    static final class Cutover extends Step {
        @Mixin Expect expect;

        @Override
        ShardMapState step(Reshard r, PrintWriter out) throws IOException {
            return r.cutover(expect.ids());
        }
    }

    @Command(name = "retire", description = "Drop the old map once its dedupe horizon passed.")
    static final class Retire extends Step {
        @Override
        ShardMapState step(Reshard r, PrintWriter out) {
            return r.retire();
        }
    }
}
