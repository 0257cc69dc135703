package io.streamledger.model.contract;

import io.streamledger.model.keys.KeyPaths;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code capacity verify|lanes}: prints the recomputed capacity figures and the LANE table of the
 * seed's capacity contract and exits non-zero on any inconsistency (capacity contract).
 */
@Command(
        name = "capacity",
        mixinStandardHelpOptions = true,
        description = "Verify the seed's TASK6 capacity contract against first-principles figures.",
        subcommands = {CapacityCli.Verify.class, CapacityCli.Lanes.class})
public final class CapacityCli implements Runnable {
    /** Exit code when every check passes. */
    public static final int CONSISTENT = 0;

    /** Exit code for any violation or unreadable/malformed input. */
    public static final int INCONSISTENT = 1;

    @Spec CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for in-process use (tests, other launchers). */
    public static CommandLine commandLine() {
        return new CommandLine(new CapacityCli());
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "choose a subcommand: verify or lanes");
    }

    /** Where the block and the render table come from: files, or the bundled seed copies. */
    static final class Sources {
        @Option(
                names = "--contract",
                paramLabel = "FILE",
                description = "TASK6_MODEL block to verify (default: bundled seed copy)")
        @Nullable
        Path contractFile;

        @Option(
                names = "--render",
                paramLabel = "FILE",
                description = "capacity render table to verify (default: bundled seed copy)")
        @Nullable
        Path renderFile;

        Contract contract() {
            return ContractParser.parse(
                    contractFile == null ? ContractResources.modelText() : read(contractFile));
        }

        RenderTable render() {
            return RenderTable.parse(
                    renderFile == null ? ContractResources.renderText() : read(renderFile));
        }

        String describe(ContractParseException e, boolean render) {
            Path file = render ? renderFile : contractFile;
            String name =
                    file != null
                            ? file.toString()
                            : render
                                    ? ContractResources.RENDER_RESOURCE
                                    : ContractResources.MODEL_RESOURCE;
            return name + ": " + e.getMessage();
        }

        static String read(Path file) {
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
    }

    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            description =
                    "Print recomputed figures (id, recomputed, seed, OK/MISMATCH) and the contract"
                            + " checks; exit 0 only when everything agrees.")
    static final class Verify implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Mixin Sources sources;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Contract contract;
            RenderTable render;
            try {
                contract = sources.contract();
            } catch (ContractParseException e) {
                err.println("capacity verify: " + sources.describe(e, false));
                return INCONSISTENT;
            } catch (UncheckedIOException e) {
                err.println("capacity verify: " + e.getMessage());
                return INCONSISTENT;
            }
            try {
                render = sources.render();
            } catch (ContractParseException e) {
                err.println("capacity verify: " + sources.describe(e, true));
                return INCONSISTENT;
            } catch (UncheckedIOException e) {
                err.println("capacity verify: " + e.getMessage());
                return INCONSISTENT;
            }
            out.println("# capacity figures: id recomputed seed status");
            for (FigureCheck check : ContractVerifier.figureChecks(render)) {
                out.println(check.line());
            }
            List<Violation> violations = new ArrayList<>(ContractVerifier.verify(contract, render));
            // the contract's INDEX rows must also be exactly the key paths the code builds
            violations.addAll(ContractVerifier.crossCheck(contract, KeyPaths.declared()));
            violations.addAll(ContractVerifier.crossCheckFallbacks(contract, KeyPaths.fallbacks()));
            out.println("# contract checks");
            out.println(
                    "rows: "
                            + contract.accessPatterns().size()
                            + " AP, "
                            + contract.indexes().size()
                            + " INDEX, "
                            + contract.maps().size()
                            + " MAP, "
                            + contract.lanes().size()
                            + " LANE, "
                            + contract.amplifications().size()
                            + " AMP, "
                            + render.rows().size()
                            + " figures");
            for (Violation v : violations) {
                out.println("VIOLATION " + v);
            }
            out.println(
                    violations.isEmpty()
                            ? "CONSISTENT: 0 violations"
                            : "INCONSISTENT: " + violations.size() + " violations");
            out.flush();
            return violations.isEmpty() ? CONSISTENT : INCONSISTENT;
        }
    }

    @Command(
            name = "lanes",
            mixinStandardHelpOptions = true,
            description =
                    "Print the LANE table with recomputed shards, load/shard and state next to the"
                            + " contract's values; exit 0 only when every lane agrees.")
    static final class Lanes implements Callable<Integer> {
        private static final String FORMAT =
                "%-5s %-5s %-27s %-5s %6s %5s %5s %6s %6s %8s %8s %-18s %-18s %s%n";

        private static final String MEASURED_FORMAT =
                "%-5s %-5s %-27s %-5s %10s %10s %8s %8s %8s %8s %6s %6s %9s %-18s %s%n";

        @Spec CommandSpec spec;
        @Mixin Sources sources;

        @Option(
                names = "--measured",
                paramLabel = "FILE",
                description =
                        "measured lanes, lines '<lane>|<rate/s>|<units per op>|<max-key share>':"
                                + " printed beside the contract's values with the seed rule's"
                                + " verdict (FEASIBLE / OVER_TARGET)")
        Path measured;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Contract contract;
            try {
                contract = sources.contract();
            } catch (ContractParseException e) {
                spec.commandLine()
                        .getErr()
                        .println("capacity lanes: " + sources.describe(e, false));
                return INCONSISTENT;
            } catch (UncheckedIOException e) {
                spec.commandLine().getErr().println("capacity lanes: " + e.getMessage());
                return INCONSISTENT;
            }
            out.printf(
                    FORMAT,
                    "lane",
                    "AP",
                    "route",
                    "kind",
                    "rate/s",
                    "units",
                    "share",
                    "shards",
                    "target",
                    "load",
                    "seedLoad",
                    "state",
                    "seedState",
                    "check");
            int bad = 0;
            for (LaneAssessment a : ContractVerifier.lanes(contract)) {
                LaneRow l = a.lane();
                out.printf(
                        FORMAT,
                        l.id(),
                        l.accessPattern(),
                        l.route(),
                        l.unitKind(),
                        CapacityModel.format(l.rate()),
                        CapacityModel.format(l.unitsPerOperation()),
                        na(l.maxKeyShare()),
                        na(a.recomputedShards()),
                        CapacityModel.format(l.targetUnitsPerSecond()),
                        na(a.recomputedLoadPerShard()),
                        l.loadPerShard() == null
                                ? ContractParser.NOT_AVAILABLE
                                : l.loadPerShard().toPlainString(), // as the seed wrote it
                        a.recomputedState(),
                        l.state(),
                        a.consistent() ? "OK" : "MISMATCH");
                for (Violation v : a.violations()) {
                    out.println("  VIOLATION " + v);
                }
                bad += a.violations().size();
            }
            out.println(
                    bad == 0
                            ? "CONSISTENT: 0 lane violations"
                            : "INCONSISTENT: " + bad + " lane violations");
            if (measured != null) {
                List<MeasuredLanes.Verdict> verdicts;
                try {
                    verdicts =
                            MeasuredLanes.assess(
                                    contract, MeasuredLanes.parse(Sources.read(measured)));
                } catch (IllegalArgumentException | UncheckedIOException e) {
                    spec.commandLine()
                            .getErr()
                            .println("capacity lanes --measured: " + e.getMessage());
                    return INCONSISTENT;
                }
                printMeasured(out, verdicts);
            }
            out.flush();
            return bad == 0 ? CONSISTENT : INCONSISTENT;
        }

        private static void printMeasured(PrintWriter out, List<MeasuredLanes.Verdict> verdicts) {
            out.println("# measured: rate x units x max-key share / shards vs target");
            out.printf(
                    MEASURED_FORMAT,
                    "lane",
                    "AP",
                    "route",
                    "kind",
                    "rate/s",
                    "seedRate",
                    "units",
                    "seedUnit",
                    "share",
                    "seedShr",
                    "shards",
                    "target",
                    "load",
                    "measured",
                    "seedState");
            for (MeasuredLanes.Verdict v : verdicts) {
                LaneRow l = v.lane();
                out.printf(
                        MEASURED_FORMAT,
                        l.id(),
                        l.accessPattern(),
                        l.route(),
                        l.unitKind(),
                        CapacityModel.format(v.measured().rate()),
                        CapacityModel.format(l.rate()),
                        CapacityModel.format(v.measured().unitsPerOperation()),
                        CapacityModel.format(l.unitsPerOperation()),
                        CapacityModel.format(v.measured().maxKeyShare()),
                        na(l.maxKeyShare()),
                        CapacityModel.format(v.shards()),
                        CapacityModel.format(v.target()),
                        v.loadPerShard().toPlainString(),
                        v.state(),
                        l.state());
            }
        }

        private static String na(@Nullable BigDecimal v) {
            return v == null ? ContractParser.NOT_AVAILABLE : CapacityModel.format(v);
        }
    }
}
