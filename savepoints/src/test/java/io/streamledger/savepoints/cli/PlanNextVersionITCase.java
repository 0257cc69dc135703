package io.streamledger.savepoints.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.table.Tables;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.testing.LocalDdb;
import java.nio.file.Path;
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
}
