package io.streamledger.stack;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.table.Tables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone session cluster (JobManager + two TaskManagers as separate JVMs, jobs submitted over
 * REST) runs the posting and projection jobs under a workload; the TaskManager running tasks is
 * killed by its PID after a completed checkpoint. The jobs recover from their checkpoints and the
 * tables prove: zero lost fills (one inbox receipt per fill, AP09), zero duplicate postings (one
 * balanced transaction per fill, AP10/CS11), every authority equals its posting lines (AP12 oracle)
 * and the Portfolio view equals the authority (AP07/AP13).
 */
class TaskManagerKillITCase {

    @TempDir Path dir;

    @Test
    void jobsRecoverFromTheirCheckpointsAfterATaskManagerIsKilled() throws Exception {
        Map<String, String> keys = WorkloadGenerator.demoKeys(2);
        Path data = dir.resolve("data");
        try (StackServices services = new StackServices(data, 0, 0, keys, false)) {
            Configuration clusterConf =
                    StackCluster.clusterConfig(
                            new StackCluster.Settings(
                                    0, 1, Duration.ofSeconds(2), "hashmap", null, data, false, 0));
            // the cluster's JVMs take the test JVMs' JIT setting (root POM test.jvm.jit)
            clusterConf.set(CoreOptions.FLINK_JVM_OPTIONS, System.getProperty("test.jvm.jit", ""));
            try (StandaloneCluster cluster =
                    new StandaloneCluster(
                                    dir.resolve("cluster"),
                                    System.getProperty("java.class.path"),
                                    clusterConf)
                            .start(2, Duration.ofSeconds(120))) {
                JobID posting =
                        cluster.submit(
                                StackCluster.postingGraph(
                                        clusterConf, 1, services.jobConfig(Tables.CONTEXT, true)));
                JobID projection =
                        cluster.submit(
                                StackCluster.projectionGraph(
                                        clusterConf, 1, services.jobConfig(Tables.LEDGER, false)));

                WorkloadGenerator g =
                        new WorkloadGenerator(
                                new WorkloadGenerator.Shape(
                                        7, 2, 3, 4, 15, Duration.ofSeconds(30), 4),
                                services.commandUrl(),
                                keys);
                Thread load =
                        new Thread(
                                () -> {
                                    try {
                                        g.run();
                                    } catch (InterruptedException e) {
                                        Thread.currentThread().interrupt();
                                    }
                                },
                                "workload");
                load.start();
                var fillsRoute = g.routes.get(WorkloadGenerator.ROUTE_FILL);
                await(
                        Duration.ofSeconds(90),
                        () ->
                                checkpoints(cluster, posting) >= 1
                                        && checkpoints(cluster, projection) >= 1
                                        && fillsRoute.admitted.sum() >= 20);
                int victim = cluster.busiestTaskManager();
                long pid = cluster.killTaskManager(victim);
                assertThat(cluster.taskManagers().get(victim).isAlive()).isFalse();
                System.out.printf(
                        "killed taskmanager-%d (pid %d) after %d fills%n",
                        victim, pid, fillsRoute.admitted.sum());
                load.join();

                LedgerAudit audit = new LedgerAudit(services.ddb, services);
                long fills = fillsRoute.admitted.sum();
                long deposits = g.routes.get(WorkloadGenerator.ROUTE_LEDGER).admitted.sum();
                await(
                        Duration.ofSeconds(150),
                        () -> {
                            var r = audit.run();
                            return r.inboxReceipts() >= fills && r.viewMatchesAuthority();
                        });
                LedgerAudit.Result r = audit.run();
                System.out.println("after recovery: " + r);
                System.out.println("posting " + cluster.jobFacts(posting));
                System.out.println("projection " + cluster.jobFacts(projection));

                assertThat(g.routes.values()).allSatisfy(s -> assertThat(s.failed.sum()).isZero());
                assertThat(r.inboxReceipts()).as("no lost fill").isEqualTo(fills);
                assertThat(r.trades()).isEqualTo(fills);
                assertThat(r.ledgerTransactions())
                        .as("no duplicate posting")
                        .isEqualTo(fills + deposits);
                assertThat(r.unbalancedTransactions()).isZero();
                assertThat(r.authoritiesNotEqualToPostings()).isZero();
                assertThat(r.viewMatchesAuthority()).isTrue();
                assertThat(r.portfolioRowsWithOpenGap()).isZero();
                // the posting gate's breaks, rejections and dead letters are durable: none here
                assertThat(r.breaksByReason()).as("breaks").isEmpty();
                assertThat(r.rejectedByReason()).as("rejected fills").isEmpty();
                assertThat(r.deadLettersByReason()).as("dead letters").isEmpty();
                // at least one job lost tasks with the TaskManager and came back from a checkpoint
                Map<String, Object> p = cluster.jobFacts(posting);
                Map<String, Object> q = cluster.jobFacts(projection);
                assertThat(p.get("state")).isEqualTo("RUNNING");
                assertThat(q.get("state")).isEqualTo("RUNNING");
                assertThat((Long) p.get("failovers") + (Long) q.get("failovers"))
                        .as("failovers in the exception history")
                        .isPositive();
                assertThat(Math.max((Long) p.get("restored"), (Long) q.get("restored")))
                        .as("restored checkpoint id")
                        .isPositive();
            }
        }
    }

    private static long checkpoints(StandaloneCluster cluster, JobID id) {
        try {
            return (Long) cluster.jobFacts(id).get("completedCheckpoints");
        } catch (Exception e) {
            return 0;
        }
    }

    private static void await(Duration timeout, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                // endpoint busy: poll again
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("condition not met within " + timeout);
    }
}
