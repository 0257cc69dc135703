package io.streamledger.sinks.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.fault.FaultRule;
import io.streamledger.sinks.versioned.VersionedSinkMetrics;
import io.streamledger.sinks.versioned.WriteGuard;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The versioned sink on a MiniCluster against the project's local DynamoDB endpoint (seed CS06,
 * AP13, AP07): out-of-order and duplicated versions, stale writes, injected throttling/5xx, and a
 * forced restart from a checkpoint all end with the highest version per item.
 */
class VersionedDynamoDbSinkITCase {
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension static final LocalDynamoDbExtension DYNAMO = new LocalDynamoDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    () ->
                            new MiniClusterResourceConfiguration.Builder()
                                    .setNumberTaskManagers(1)
                                    .setNumberSlotsPerTaskManager(2)
                                    .setConfiguration(
                                            METRICS.addToConfiguration(new Configuration()))
                                    .build());

    private static DynamoDbClient admin;
    private static DynamoDbClientConfig clientConfig;

    @BeforeAll
    static void connect() {
        clientConfig = DynamoDbClientConfig.local(DYNAMO.endpoint().endpoint().toString());
        admin = clientConfig.buildSyncClient();
    }

    @AfterAll
    static void disconnect() {
        if (admin != null) {
            admin.close();
        }
    }

    private static PortfolioTable newTable() {
        return PortfolioTable.create(
                admin, "Portfolio_it_" + UUID.randomUUID().toString().substring(0, 8));
    }

    private static long counter(JobID job, String name) {
        long sum = 0;
        for (Map.Entry<String, Metric> e : METRICS.findMetrics(job, name).entrySet()) {
            if (e.getKey().endsWith("." + name) && e.getValue() instanceof Counter) {
                sum += ((Counter) e.getValue()).getCount();
            }
        }
        return sum;
    }

    private static Map<String, Long> versionsIn(PortfolioTable table) {
        Map<String, Long> versions = new HashMap<>();
        table.readAll()
                .forEach(
                        (id, vq) -> {
                            assertThat(vq[1])
                                    .as("quantity of %s matches its version", id)
                                    .isEqualTo(PositionEvent.quantityAt(vq[0]));
                            versions.put(id, vq[0]);
                        });
        return versions;
    }

    @Test
    void outOfOrderAndDuplicatedVersionsEndAtTheMaxVersionPerKey() throws Exception {
        PortfolioTable table = newTable();
        SinkJobScenario scenario =
                SinkJobScenario.writingTo(table.name(), clientConfig)
                        .shuffledVersions(40, 25, 0.3, 7);

        JobExecutionResult result = scenario.run();

        assertThat(versionsIn(table)).isEqualTo(scenario.expectedVersions());
        JobID job = result.getJobID();
        long applied = counter(job, VersionedSinkMetrics.APPLIED_WRITES);
        long stale = counter(job, VersionedSinkMetrics.STALE_WRITES);
        long coalesced = counter(job, VersionedSinkMetrics.COALESCED_WRITES);
        assertThat(applied + stale + coalesced)
                .as("every event is settled exactly once")
                .isEqualTo(scenario.events().size());
        assertThat(coalesced).as("duplicates and older versions coalesce").isPositive();
        assertThat(counter(job, VersionedSinkMetrics.CONSUMED_WRITE_UNITS))
                .as("the endpoint reports one unit per small applied write")
                .isEqualTo(applied);
        assertThat(counter(job, VersionedSinkMetrics.FATAL_ERRORS)).isZero();
    }

    @Test
    void aStaleWriteAfterANewerOneIsCountedAndDoesNotRegress() throws Exception {
        PortfolioTable table = newTable();
        SinkJobScenario scenario =
                SinkJobScenario.writingTo(table.name(), clientConfig)
                        .shuffledVersions(15, 20, 0, 11);
        // ten positions already hold v100, e.g. written before a restore from an older savepoint
        for (int k = 0; k < 10; k++) {
            table.put(new PositionEvent("acct" + (k % 7), "SYM" + k, 100));
        }
        Map<String, Long> expected = scenario.expectedVersions();
        for (int k = 0; k < 10; k++) {
            expected.put(
                    new PositionEvent("acct" + (k % 7), "SYM" + k, 0).pk() + "|POS#SYM" + k, 100L);
        }

        JobExecutionResult result = scenario.run();

        assertThat(versionsIn(table)).isEqualTo(expected);
        JobID job = result.getJobID();
        long stale = counter(job, VersionedSinkMetrics.STALE_WRITES);
        assertThat(stale)
                .as("at least one rejected write per newer item")
                .isGreaterThanOrEqualTo(10);
        assertThat(
                        counter(job, VersionedSinkMetrics.APPLIED_WRITES)
                                + stale
                                + counter(job, VersionedSinkMetrics.COALESCED_WRITES))
                .isEqualTo(scenario.events().size());
        assertThat(counter(job, VersionedSinkMetrics.FATAL_ERRORS)).isZero();
    }

    @Test
    void injectedThrottlingAndServerErrorsAreRetriedAndAllWritesLand() throws Exception {
        PortfolioTable table = newTable();
        SinkJobScenario scenario =
                SinkJobScenario.writingTo(table.name(), clientConfig)
                        .shuffledVersions(30, 10, 0.2, 13);
        var faults = DYNAMO.endpoint().faults();
        FaultRule throttle =
                faults.add(
                        FaultRule.throttle()
                                .operation("UpdateItem")
                                .table(table.name())
                                .probability(0.3));
        FaultRule serverError =
                faults.add(
                        FaultRule.internalError()
                                .operation("UpdateItem")
                                .table(table.name())
                                .probability(0.1));
        JobExecutionResult result;
        try {
            result = scenario.run();
        } finally {
            faults.remove(throttle.id());
            faults.remove(serverError.id());
        }

        assertThat(versionsIn(table)).isEqualTo(scenario.expectedVersions());
        assertThat(counter(result.getJobID(), VersionedSinkMetrics.RETRIES))
                .as("injected faults were retried")
                .isPositive();
        assertThat(counter(result.getJobID(), VersionedSinkMetrics.FATAL_ERRORS)).isZero();
    }

    @Test
    void aRestartFromCheckpointAfterAFailureEndsWithTheMaxVersions() throws Exception {
        PortfolioTable table = newTable();
        String token = UUID.randomUUID().toString();
        SinkJobScenario scenario =
                SinkJobScenario.writingTo(table.name(), clientConfig)
                        .shuffledVersions(50, 60, 0.1, 17)
                        .checkpointed(150, 3000)
                        .failOnceAt(token, 1800);

        scenario.run();

        assertThat(FailOnceMap.hasFailed(token)).as("the injected failure happened").isTrue();
        assertThat(versionsIn(table)).isEqualTo(scenario.expectedVersions());
    }

    @Test
    void createOnceKeepsOneRowPerIdAndCountsRepeats() throws Exception {
        PortfolioTable table = newTable();
        SinkJobScenario scenario =
                SinkJobScenario.writingTo(table.name(), clientConfig)
                        .guard(WriteGuard.createOnce())
                        .shuffledVersions(20, 3, 0.5, 19);

        JobExecutionResult result = scenario.run();

        Map<String, Long> rows = versionsIn(table);
        assertThat(rows.keySet()).isEqualTo(scenario.expectedVersions().keySet());
        JobID job = result.getJobID();
        assertThat(counter(job, VersionedSinkMetrics.APPLIED_WRITES)).isEqualTo(20);
        assertThat(
                        counter(job, VersionedSinkMetrics.STALE_WRITES)
                                + counter(job, VersionedSinkMetrics.COALESCED_WRITES))
                .isEqualTo(scenario.events().size() - 20);
    }
}
