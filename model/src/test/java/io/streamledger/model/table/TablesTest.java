package io.streamledger.model.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.contract.DeclaredIndex;
import io.streamledger.model.keys.KeyPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Table specs agree with the declared key paths and the seed's table/index layout. */
class TablesTest {

    @Test
    void everyDeclaredPathIsServedByExactlyOneTableAndIndexKind() {
        List<String> served = new ArrayList<>();
        for (TableSpec t : Tables.all()) {
            t.indexIds().stream().filter(id -> id.startsWith("IDX")).forEach(served::add);
        }
        assertThat(served)
                .containsExactlyInAnyOrderElementsOf(
                        KeyPaths.declared().stream().map(DeclaredIndex::id).toList());
        for (DeclaredIndex d : KeyPaths.declared()) {
            TableSpec t = Tables.byLogicalName(d.table());
            if (d.kind().equals("BASE")) {
                assertThat(t.baseIndexIds()).as(d.id()).contains(d.id());
            } else {
                GsiSpec g = t.gsi(d.kind()).orElseThrow();
                assertThat(g.indexId()).as(d.id()).isEqualTo(d.id());
            }
        }
    }

    @Test
    void gsiAttributesAndSparsenessFollowTheSeed() {
        GsiSpec ready = Tables.CONTEXT.gsi("GSI3").orElseThrow();
        assertThat(ready.pkAttr()).isEqualTo("readyPk");
        assertThat(ready.skAttr()).isEqualTo("readySk");
        assertThat(ready.sparse()).isTrue();
        assertThat(Tables.ORDERS.gsi("GSI2").orElseThrow().sparse()).isTrue();
        assertThat(Tables.ORDERS.gsi("GSI1").orElseThrow().pkAttr()).isEqualTo("GSI1PK");
        assertThat(Tables.RECONCILIATION.gsi("GSI1").orElseThrow().sparse()).isTrue();
        assertThat(Tables.IDEMPOTENCY.gsi("GSI1").orElseThrow().indexId()).isEqualTo("IDX19");
        assertThat(Tables.IDEMPOTENCY.gsi("GSI1").orElseThrow().sparse()).isTrue();
        assertThat(Tables.IDEMPOTENCY.ttlAttribute()).isEqualTo(Attr.EXPIRES_AT);
        // the seed proposes GSIs only for IDX02/03/05/06/15/17 (+19), no LSI
        Set<String> gsiPaths =
                Tables.all().stream()
                        .flatMap(t -> t.gsis().stream())
                        .map(GsiSpec::indexId)
                        .filter(id -> id.startsWith("IDX"))
                        .collect(Collectors.toSet());
        assertThat(gsiPaths)
                .containsExactlyInAnyOrder(
                        "IDX02", "IDX03", "IDX05", "IDX06", "IDX15", "IDX17", "IDX19");
    }

    @Test
    void streamViewsMatchWhoConsumesTransitions() {
        for (TableSpec t :
                List.of(Tables.ORDERS, Tables.EXECUTION, Tables.LEDGER, Tables.CONTEXT)) {
            assertThat(t.streamViewType())
                    .as(t.logicalName())
                    .isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
        }
        assertThat(Tables.RECONCILIATION.streamViewType()).isEqualTo(StreamViewType.NEW_IMAGE);
        for (TableSpec t :
                List.of(Tables.PORTFOLIO, Tables.IDEMPOTENCY, Tables.INBOX, Tables.PROJECTION)) {
            assertThat(t.hasStream()).as(t.logicalName()).isFalse();
        }
        Tables.all().forEach(t -> assertThat(t.streamReason()).isNotBlank());
    }

    @Test
    void timeDrivenQueuesAreSparseKeysOnlyIndexesAndCompletedOutboxItemsExpire() {
        GsiSpec expiry = Tables.ORDERS.gsi("GSI3").orElseThrow();
        assertThat(expiry.indexId()).isEqualTo("ORDER-EXPIRY");
        assertThat(expiry.pkAttr()).isEqualTo(Attr.EXPIRY_PK);
        assertThat(expiry.sparse()).isTrue();
        assertThat(expiry.projection()).isEqualTo(GsiProjection.KEYS_ONLY);
        GsiSpec lease = Tables.CONTEXT.gsi("GSI4").orElseThrow();
        assertThat(lease.indexId()).isEqualTo("OUTBOX-LEASE");
        assertThat(lease.pkAttr()).isEqualTo(Attr.LEASE_PK);
        assertThat(lease.sparse()).isTrue();
        assertThat(lease.projection()).isEqualTo(GsiProjection.KEYS_ONLY);
        assertThat(Tables.CONTEXT.ttlAttribute()).isEqualTo(Attr.EXPIRES_AT);
    }

    @Test
    void deadLetterTableIsTenantFirstWithASparseStatusQueue() {
        TableSpec t = Tables.DEAD_LETTER;
        assertThat(t.indexIds()).containsExactly("DLQ", "DLQ-STATUS");
        assertThat(t.gsi("GSI1").orElseThrow().sparse()).isTrue();
        assertThat(t.hasStream()).isFalse();
        assertThat(t.ttlAttribute()).isNull(); // entries are the audit record: never expire
        assertThat(Tables.byLogicalName("DeadLetter")).isSameAs(t);
    }

    @Test
    void allTablesUseStringPkSk() {
        Tables.all().forEach(t -> assertThat(t.keySchema()).isEqualTo(KeySchema.PK_SK));
        assertThat(KeySchema.ATTRIBUTE_TYPE).isEqualTo("S");
        assertThat(Tables.all()).hasSize(10);
    }

    @Test
    void namingAppliesPrefixAndPortfolioVersion() {
        TableNaming test = new TableNaming("it-4f2a-");
        assertThat(test.physicalName(Tables.ORDERS)).isEqualTo("it-4f2a-Orders");
        assertThat(test.physicalName(Tables.PORTFOLIO, 3)).isEqualTo("it-4f2a-Portfolio_v3");
        assertThat(Tables.portfolioPhysicalName(3)).isEqualTo("Portfolio_v3");
        assertThatThrownBy(() -> test.physicalName(Tables.PORTFOLIO))
                .hasMessageContaining("versioned");
        assertThatThrownBy(() -> test.physicalName(Tables.ORDERS, 1))
                .hasMessageContaining("not versioned");
        assertThatThrownBy(() -> test.physicalName(Tables.PORTFOLIO, 0))
                .hasMessageContaining(">= 1");
        assertThatThrownBy(() -> new TableNaming("bad prefix")).hasMessageContaining("prefix");
        assertThatThrownBy(() -> Tables.byLogicalName("Nope")).hasMessageContaining("Nope");
    }

    @Test
    void includeProjectionsListTheirAttributes() {
        GsiSpec orders = Tables.ORDERS.gsi("GSI1").orElseThrow();
        assertThat(orders.projection()).isEqualTo(GsiProjection.INCLUDE);
        assertThat(orders.nonKeyAttributes()).contains(Attr.STATUS, Attr.VERSION);
        assertThatThrownBy(
                        () ->
                                new GsiSpec(
                                        "G",
                                        "a",
                                        "b",
                                        GsiProjection.INCLUDE,
                                        List.of(),
                                        false,
                                        "IDX99"))
                .hasMessageContaining("INCLUDE");
    }

    @Test
    void keyAttributesListBaseThenGsiKeysOnce() {
        assertThat(Tables.ORDERS.keyAttributes())
                .containsExactly(
                        "PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "expiryPk", "expirySk");
        assertThat(Tables.CONTEXT.keyAttributes())
                .containsExactly("PK", "SK", "readyPk", "readySk", "leasePk", "leaseSk");
        assertThat(Tables.LEDGER.keyAttributes()).containsExactly("PK", "SK");
    }
}
