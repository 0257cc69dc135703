package io.streamledger.stack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.streamledger.command.CommandServiceMain;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.local.LocalEndpointMain;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Keeps docker/docker-compose.yml (Docker cannot run here) consistent with the build: the official
 * Flink image at the pinned version, ports that match the services' flags, Flink config keys that
 * Flink knows, main classes and flags that exist, job options that exist; and checks the launcher's
 * own MiniCluster configuration uses only known Flink keys.
 */
class DockerComposeTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static JsonNode compose;
    private static String flinkVersion;
    private static Set<String> flinkKeys;

    @BeforeAll
    static void load() throws Exception {
        compose =
                new ObjectMapper(new YAMLFactory())
                        .readTree(ROOT.resolve("docker/docker-compose.yml").toFile());
        Matcher m =
                Pattern.compile("<flink.version>([^<]+)</flink.version>")
                        .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(m.find()).as("flink.version in the root pom").isTrue();
        flinkVersion = m.group(1);
        flinkKeys = knownFlinkKeys();
    }

    @Test
    void flinkServicesUseTheOfficialImageAtThePinnedVersion() {
        String expected = "flink:" + flinkVersion + "-scala_2.12-java17";
        for (String s : List.of("jobmanager", "taskmanager", "submit-jobs")) {
            assertThat(service(s).path("image").asText()).as(s).isEqualTo(expected);
        }
        // the version the build runs its tests and the launcher on is that same version
        assertThat(EnvironmentInformation.getVersion()).isEqualTo(flinkVersion);
        assertThat(service("taskmanager").path("deploy").path("replicas").asInt()).isEqualTo(2);
    }

    @Test
    void flinkPropertiesAreKnownKeysAndMatchTheLauncherDefaults() throws Exception {
        Map<String, String> props = flinkProperties("jobmanager");
        assertThat(flinkProperties("taskmanager")).isEqualTo(props);
        for (String key : props.keySet()) {
            assertThat(isKnownFlinkKey(key)).as("Flink knows '%s'", key).isTrue();
        }
        Class<?> factory = Class.forName(props.get("metrics.reporter.prom.factory.class"));
        assertThat(factory.getSimpleName()).isEqualTo("PrometheusReporterFactory");
        assertThat(props.get("state.backend.type")).isIn("hashmap", "rocksdb");
        assertThat(props.get("rest.port")).isEqualTo(defaultOf(new StackMain(), "--ui-port"));
        assertThat(ports("jobmanager"))
                .contains(
                        "127.0.0.1:" + props.get("rest.port") + ":" + props.get("rest.port"),
                        "127.0.0.1:"
                                + props.get("metrics.reporter.prom.port")
                                + ":"
                                + props.get("metrics.reporter.prom.port"));
        assertThat(service("jobmanager").path("volumes").toString())
                .contains("../jobs/target/streamledger-jobs.jar:/opt/flink/usrlib/");
    }

    @Test
    void serviceCommandsNameRealMainsFlagsAndPorts() throws Exception {
        Map<String, Object> mains = new LinkedHashMap<>();
        mains.put("dynamodb-local", new LocalEndpointMain());
        mains.put("command-service", new CommandServiceMain());
        mains.put("provision", new ProvisionTables());
        for (var e : mains.entrySet()) {
            List<String> cmd = new ArrayList<>();
            service(e.getKey()).path("command").forEach(n -> cmd.add(n.asText()));
            assertThat(cmd.get(0)).isEqualTo(e.getValue().getClass().getName());
            // picocli parses the rest exactly as the container would
            CommandLine cl = new CommandLine(e.getValue());
            cl.parseArgs(cmd.subList(1, cmd.size()).toArray(String[]::new));
        }
        assertThat(ports("dynamodb-local")).containsExactly("127.0.0.1:8000:8000");
        assertThat(argAfter("dynamodb-local", "--port")).isEqualTo("8000");
        assertThat(argAfter("command-service", "--port")).isEqualTo("8080");
        assertThat(ports("command-service"))
                .containsExactly("127.0.0.1:8080:8080", "127.0.0.1:9464:9464");
        assertThat(argAfter("command-service", "--metrics-port")).isEqualTo("9464");
        assertThat(argAfter("command-service", "--dynamodb-endpoint"))
                .isEqualTo("http://dynamodb-local:8000");
        assertThat(Files.readAllLines(ROOT.resolve("docker/api-keys.txt")))
                .filteredOn(l -> !l.startsWith("#"))
                .contains(
                        "tenant-1 "
                                + io.streamledger.command.auth.ApiKeyAuthenticator.sha256Hex(
                                        "demo-key-tenant-1"));
    }

    @Test
    void submitScriptUsesExistingJobMainsAndOptions() throws Exception {
        String script = Files.readString(ROOT.resolve("docker/submit-jobs.sh"));
        Set<String> jobKeys = new HashSet<>();
        for (Field f : JobOptions.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.get(null) instanceof ConfigOption<?> o) {
                jobKeys.add(o.key());
            }
        }
        Matcher keys = Pattern.compile("--(streamledger\\.[a-z0-9.-]+)").matcher(script);
        int seen = 0;
        while (keys.find()) {
            assertThat(jobKeys).as("JobOptions key").contains(keys.group(1));
            seen++;
        }
        assertThat(seen).isGreaterThan(5);
        Matcher mains = Pattern.compile("-c (\\S+)").matcher(script);
        List<String> classes = new ArrayList<>();
        while (mains.find()) {
            classes.add(mains.group(1));
            assertThat(Class.forName(mains.group(1)).getMethod("main", String[].class)).isNotNull();
        }
        assertThat(classes)
                .containsExactly(
                        "io.streamledger.jobs.posting.PostingJob",
                        "io.streamledger.jobs.projection.ProjectionJob");
    }

    @Test
    void launcherClusterConfigUsesOnlyKnownFlinkKeys() {
        var conf =
                StackCluster.clusterConfig(
                        new StackCluster.Settings(
                                8081,
                                1,
                                Duration.ofSeconds(10),
                                "rocksdb",
                                9249,
                                Path.of("/tmp/x"),
                                true,
                                0));
        for (String key : conf.keySet()) {
            assertThat(isKnownFlinkKey(key)).as("Flink knows '%s'", key).isTrue();
        }
    }

    private static boolean isKnownFlinkKey(String key) {
        if (flinkKeys.contains(key)) {
            return true;
        }
        // metrics.reporter.<name>.<reporter option>: factory.class is Flink's, port the reporter's
        Matcher m = Pattern.compile("metrics\\.reporter\\.[a-z0-9_]+\\.(.+)").matcher(key);
        return m.matches() && (flinkKeys.contains(m.group(1)) || m.group(1).equals("port"));
    }

    private static Set<String> knownFlinkKeys() throws Exception {
        Set<String> keys = new HashSet<>();
        for (String cls :
                List.of(
                        "org.apache.flink.configuration.CoreOptions",
                        "org.apache.flink.configuration.CheckpointingOptions",
                        "org.apache.flink.configuration.StateBackendOptions",
                        "org.apache.flink.configuration.StateRecoveryOptions",
                        "org.apache.flink.configuration.RestOptions",
                        "org.apache.flink.configuration.JobManagerOptions",
                        "org.apache.flink.configuration.TaskManagerOptions",
                        "org.apache.flink.configuration.MetricOptions",
                        "org.apache.flink.configuration.RestartStrategyOptions",
                        "org.apache.flink.configuration.NettyShuffleEnvironmentOptions")) {
            for (Field f : Class.forName(cls).getFields()) {
                if (Modifier.isStatic(f.getModifiers())
                        && f.get(null) instanceof ConfigOption<?> o) {
                    keys.add(o.key());
                    for (FallbackKey k : o.fallbackKeys()) {
                        keys.add(k.getKey());
                    }
                }
            }
        }
        return keys;
    }

    private static JsonNode service(String name) {
        JsonNode s = compose.path("services").path(name);
        assertThat(s.isMissingNode()).as("service %s", name).isFalse();
        return s;
    }

    private static List<String> ports(String name) {
        List<String> out = new ArrayList<>();
        service(name).path("ports").forEach(p -> out.add(p.asText()));
        return out;
    }

    private static String argAfter(String name, String flag) {
        JsonNode cmd = service(name).path("command");
        for (int i = 0; i + 1 < cmd.size(); i++) {
            if (cmd.get(i).asText().equals(flag)) {
                return cmd.get(i + 1).asText();
            }
        }
        throw new AssertionError(name + " has no " + flag);
    }

    /** FLINK_PROPERTIES of a service. */
    private static Map<String, String> flinkProperties(String name) {
        String text = service(name).path("environment").path("FLINK_PROPERTIES").asText();
        assertThat(text).as("FLINK_PROPERTIES of %s", name).isNotBlank();
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(": ");
            out.put(line.substring(0, colon).trim(), line.substring(colon + 2).trim());
        }
        return out;
    }

    private static String defaultOf(Object command, String option) {
        return new CommandLine(command).getCommandSpec().findOption(option).defaultValue();
    }
}
