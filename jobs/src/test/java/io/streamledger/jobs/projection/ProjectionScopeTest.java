package io.streamledger.jobs.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.model.change.Transport;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.operators.gate.GateEvent;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The projection job's view scope (AP07): {@code streamledger.projection.scope=clients} leaves
 * house sub-account authorities out at the parse step, before the gate; the default keeps them.
 */
class ProjectionScopeTest {

    private static Optional<GateEvent> parse(Configuration conf, String account) throws Exception {
        AuthorityKey k = AuthorityKey.security("t1", account, "ACME");
        Map<String, String> image = new LinkedHashMap<>();
        image.put("PK", k.pk());
        image.put("SK", k.sk());
        image.put("version", "N:3");
        image.put("posted", "N:-40");
        image.put("reserved", "N:0");
        String raw = TestRecords.insert("ev-" + account, "Ledger", 1_764_496_800_000L, image);
        ParseChanges<GateEvent> step = ProjectionJob.parseStep(conf);
        return step.parse(
                new RawChange(
                        Transport.KINESIS.name(),
                        "ledger",
                        "shardId-0",
                        "1",
                        0L,
                        raw.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void byDefaultEveryAuthorityIsProjected() throws Exception {
        assertThat(new Configuration().get(JobOptions.PROJECTION_SCOPE)).isEqualTo(ViewScope.ALL);
        assertThat(parse(new Configuration(), "acct-1")).isPresent();
        assertThat(parse(new Configuration(), "HOUSE-CLEARING-12"))
                .hasValueSatisfying(
                        e ->
                                assertThat(e.getSourceKey())
                                        .isEqualTo("t1/HOUSE-CLEARING-12/SEC/ACME"));
    }

    @Test
    void theClientsScopeSkipsHouseSubAccountsBeforeTheGate() throws Exception {
        Configuration conf = new Configuration();
        conf.setString(JobOptions.PROJECTION_SCOPE.key(), "clients");
        assertThat(parse(conf, "acct-1"))
                .hasValueSatisfying(e -> assertThat(e.getVersion()).isEqualTo(3));
        assertThat(parse(conf, "HOUSE-CLEARING-12")).isEmpty();
        assertThat(parse(conf, "HOUSE-FEES-BROKER-12")).isEmpty();
    }
}
