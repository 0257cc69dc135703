package io.streamledger.local.kinesis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Installs the pinned {@code kinesis-local} npm package into a project-local cache once, under a
 * file lock so that two JVMs (or two test classes) never run {@code npm install} at the same time.
 */
final class KinesisLocalInstaller {
    static final String PACKAGE = "kinesis-local";
    static final String VERSION = "0.6.2";

    /** System property that overrides the cache directory. */
    static final String CACHE_DIR_PROPERTY = "streamledger.kinesisLocal.dir";

    static final String PREREQUISITE =
            "kinesis-local needs Node.js 18+ and npm on the PATH: install Node.js 18 or newer"
                    + " (it includes npm), e.g. `apt-get install nodejs npm` or from"
                    + " https://nodejs.org/, then re-run.";

    private static final Object IN_JVM_LOCK = new Object();
    private static final Pattern NODE_VERSION = Pattern.compile("v?(\\d+)\\.");
    private static final Pattern PACKAGE_VERSION =
            Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");

    private KinesisLocalInstaller() {}

    /** The cache directory: the system property, else {@code <project root>/.kinesis-local}. */
    static Path cacheDir() {
        String override = System.getProperty(CACHE_DIR_PROPERTY);
        if (override != null && !override.isBlank()) {
            return Path.of(override).toAbsolutePath();
        }
        return projectRoot(Path.of(System.getProperty("user.dir")).toAbsolutePath())
                .resolve(".kinesis-local");
    }

    /**
     * The nearest ancestor holding {@code .git}; without one, the top-most ancestor holding a
     * {@code pom.xml} (module directories sit below the root pom); else the start directory.
     */
    static Path projectRoot(Path start) {
        Path topPom = null;
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(".git"))) {
                return dir;
            }
            if (Files.isRegularFile(dir.resolve("pom.xml"))) {
                topPom = dir;
            }
        }
        return topPom != null ? topPom : start;
    }

    /** Returns the installed package directory (holding {@code main.js}), installing if missing. */
    static Path ensureInstalled(Path cacheDir) {
        int nodeMajor = nodeMajorVersion("node");
        if (nodeMajor < 18) {
            throw new IllegalStateException(
                    "Found Node.js major version " + nodeMajor + "; " + PREREQUISITE);
        }
        Path pkg = cacheDir.resolve("node_modules").resolve(PACKAGE);
        if (isInstalled(pkg)) {
            return pkg;
        }
        synchronized (IN_JVM_LOCK) {
            try {
                Files.createDirectories(cacheDir);
                try (FileChannel channel =
                                FileChannel.open(
                                        cacheDir.resolve(".install.lock"),
                                        StandardOpenOption.CREATE,
                                        StandardOpenOption.WRITE);
                        FileLock ignored = channel.lock()) {
                    if (!isInstalled(pkg)) { // another JVM may have installed while we waited
                        npmInstall(cacheDir);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot install kinesis-local into " + cacheDir, e);
            }
        }
        if (!isInstalled(pkg)) {
            throw new IllegalStateException(
                    "npm install finished but " + pkg.resolve("main.js") + " is missing");
        }
        return pkg;
    }

    static boolean isInstalled(Path pkg) {
        Path packageJson = pkg.resolve("package.json");
        if (!Files.isRegularFile(pkg.resolve("main.js")) || !Files.isRegularFile(packageJson)) {
            return false;
        }
        try {
            Matcher m = PACKAGE_VERSION.matcher(Files.readString(packageJson));
            return m.find() && VERSION.equals(m.group(1));
        } catch (IOException e) {
            return false;
        }
    }

    private static void npmInstall(Path cacheDir) throws IOException {
        Path log = cacheDir.resolve("npm-install.log");
        List<String> command =
                List.of(
                        "npm",
                        "install",
                        "--no-audit",
                        "--no-fund",
                        "--prefix",
                        cacheDir.toString(),
                        PACKAGE + "@" + VERSION);
        Process process;
        try {
            process =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
        } catch (IOException e) {
            throw new IllegalStateException("npm was not found. " + PREREQUISITE, e);
        }
        try {
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "npm install timed out after 5 minutes; see " + log);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while installing kinesis-local", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    "`"
                            + String.join(" ", command)
                            + "` failed with exit code "
                            + process.exitValue()
                            + ":\n"
                            + Files.readString(log, StandardCharsets.UTF_8));
        }
    }

    /** Major version of {@code node}, failing with the prerequisite message when it is absent. */
    static int nodeMajorVersion(String nodeCommand) {
        try {
            Process process =
                    new ProcessBuilder(nodeCommand, "--version").redirectErrorStream(true).start();
            String out =
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("`node --version` failed. " + PREREQUISITE);
            }
            Matcher m = NODE_VERSION.matcher(out.trim());
            if (!m.find()) {
                throw new IllegalStateException(
                        "Cannot parse `node --version` output '"
                                + out.trim()
                                + "'. "
                                + PREREQUISITE);
            }
            return Integer.parseInt(m.group(1));
        } catch (IOException e) {
            throw new IllegalStateException("node was not found. " + PREREQUISITE, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking node", e);
        }
    }
}
