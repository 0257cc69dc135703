package io.streamledger.savepoints.cli;

import io.streamledger.savepoints.inspect.SavepointInspector;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code savepoint inspect PATH}: operators, key counts, version ranges, parked events (AP13). */
@Command(
        name = "savepoint",
        mixinStandardHelpOptions = true,
        subcommands = {SavepointCommand.Inspect.class},
        description = "Savepoint tools.")
final class SavepointCommand {

    @Command(
            name = "inspect",
            mixinStandardHelpOptions = true,
            description = "Summarise a savepoint.")
    static final class Inspect implements Callable<Integer> {
        @Parameters(index = "0", description = "savepoint directory or URI")
        String path;

        @Override
        public Integer call() throws Exception {
            System.out.print(SavepointInspector.inspect(path).render());
            return 0;
        }
    }
}
