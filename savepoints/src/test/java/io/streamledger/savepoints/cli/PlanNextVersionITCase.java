package io.streamledger.savepoints.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.ProjectionAliasItems;
import io.streamledger.model.keys.ProjectionAliasKey;
import io.streamledger.model.table.Tables;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.cutover.AliasCutover;
import io.streamledger.savepoints.cutover.CutoverRefusedException;
import io.streamledger.savepoints.proof.ProofReport;
import io.streamledger.savepoints.testing.LocalDdb;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backfill plan} (CS09) proposes the next free namespace version: above the highest {@code
 * Portfolio_vN} table of this prefix, not only above the alias (which may be absent while the live
 * view is v1).
 */
class PlanNextVersionITCase {

    @TempDir Path dir;

    @Test
    void highestExistingNamespaceOfThisPrefixOnly() {
        try (LocalDdb local = new LocalDdb(dir)) {
            Namespace v1 = new Namespace(local.naming, "portfolio", 1);
            assertThat(BackfillCommand.highestNamespace(local.ddb, v1)).isZero();
            NamespaceTables.createPortfolioIfAbsent(local.ddb, v1);
            assertThat(BackfillCommand.highestNamespace(local.ddb, v1)).isEqualTo(1);
            NamespaceTables.createPortfolioIfAbsent(
                    local.ddb, new Namespace(local.naming, "portfolio", 3));
            // another deployment's namespace and a non-version suffix do not count
            local.ddb.createTable(
                    b ->
                            NamespaceTables.pkSkOnDemand(
                                    b.tableName(
                                            "other-" + Tables.PORTFOLIO.logicalName() + "_v9")));
            local.ddb.createTable(
                    b ->
                            NamespaceTables.pkSkOnDemand(
                                    b.tableName(
                                            local.naming.physicalName(Tables.PORTFOLIO, 1)
                                                    + "0x")));
            assertThat(BackfillCommand.highestNamespace(local.ddb, v1)).isEqualTo(3);
        }
    }

    @Test
    void aProvisionedAliasMakesV1LiveSoPlanNamesV2AndCutoverExpectsV1() {
        try (LocalDdb local = new LocalDdb(dir)) {
            Namespace v1 = new Namespace(local.naming, "portfolio", 1);
            String projection = local.create(Tables.PROJECTION);
            NamespaceTables.createPortfolioIfAbsent(local.ddb, v1);
            assertThat(provisionV1(local, projection)).isTrue();
            AliasCutover aliases = new AliasCutover(local.ddb, projection);
            OptionalInt active = aliases.activeVersion("portfolio");
            assertThat(active).hasValue(1);
            int highest = BackfillCommand.highestNamespace(local.ddb, v1);
            assertThat(BackfillCommand.liveVersion(active, highest)).isEqualTo(1);
            assertThat(BackfillCommand.nextFreeVersion(active, highest)).isEqualTo(2);

            ObjectNode json = new ObjectMapper().createObjectNode();
            json.put("passed", true);
            json.putObject("namespace").put("projection", "portfolio").put("version", 2);
            ProofReport proof = ProofReport.of(json);
            aliases.recordProof(proof);
            // one line with the reason, as the CLI prints it
            assertThatThrownBy(() -> aliases.cutover(proof, 0, proof.digest()))
                    .isInstanceOf(CutoverRefusedException.class)
                    .hasMessage("cutover refused: the alias is at v1, expected no alias");
            aliases.cutover(proof, 1, proof.digest());
            assertThat(aliases.activeVersion("portfolio")).hasValue(2);
            // provisioning again (a restart) never moves the alias back
            assertThat(provisionV1(local, projection)).isFalse();
            assertThat(aliases.activeVersion("portfolio")).hasValue(2);
        }
    }

    private static boolean provisionV1(LocalDdb local, String projection) {
        return ProjectionAliasItems.provisionIfAbsent(
                local.ddb, projection, ProjectionAliasKey.PORTFOLIO, 1, Instant.now());
    }
}
