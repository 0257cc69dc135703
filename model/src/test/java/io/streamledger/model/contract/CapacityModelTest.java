package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DynamoDB rounding primitives and the recomputed seed figures (AP06, AP09, AP13, AP16, AMP14,
 * ledger buckets) of {@link CapacityModel}.
 */
class CapacityModelTest {
    private static BigDecimal d(String v) {
        return new BigDecimal(v);
    }

    @Test
    void writesRoundEachItemUpToOneKib() {
        assertThat(CapacityModel.writeUnits(d("1.2"))).isEqualByComparingTo("2");
        assertThat(CapacityModel.writeUnits(d("1.0"))).isEqualByComparingTo("1");
        assertThat(CapacityModel.writeUnits(d("0.2"))).isEqualByComparingTo("1");
    }

    @Test
    void readsRoundToFourKibAndEventualIsHalf() {
        assertThat(CapacityModel.strongReadUnits(d("10"))).isEqualByComparingTo("3");
        assertThat(CapacityModel.strongReadUnits(d("4"))).isEqualByComparingTo("1");
        assertThat(CapacityModel.eventualReadUnits(d("4.01"))).isEqualByComparingTo("1");
        assertThat(CapacityModel.eventualReadUnits(d("50"))).isEqualByComparingTo("6.5");
    }

    @Test
    void targetIsEightyPercentOfThePartitionCeiling() {
        assertThat(CapacityModel.targetUnitsPerSecond(UnitKind.READ)).isEqualByComparingTo("2400");
        assertThat(CapacityModel.targetUnitsPerSecond(UnitKind.WRITE)).isEqualByComparingTo("800");
        assertThat(CapacityModel.shardsFor(d("800"), UnitKind.WRITE)).isEqualByComparingTo("1");
        assertThat(CapacityModel.shardsFor(d("800.01"), UnitKind.WRITE)).isEqualByComparingTo("2");
    }

    @Test
    void perShardAndHeadroomRoundHalfUpToTwoDecimals() {
        assertThat(CapacityModel.perShard(d("10000"), d("13"))).isEqualByComparingTo("769.23");
        assertThat(CapacityModel.perShard(d("5000"), d("7"))).isEqualByComparingTo("714.29");
        assertThat(CapacityModel.headroomPercent(d("10240"), d("13"), UnitKind.WRITE))
                .isEqualByComparingTo("1.54");
    }

    @Test
    void formatUsesTheSeedNotation() {
        assertThat(CapacityModel.format(d("800.00"))).isEqualTo("800");
        assertThat(CapacityModel.format(d("1.50"))).isEqualTo("1.5");
        assertThat(CapacityModel.format(d("1200000"))).isEqualTo("1200000");
        assertThat(CapacityModel.format(d("0.0"))).isEqualTo("0");
    }

    @Test
    void ap16LifecycleIsDerivedFromTransitions() {
        Ap16Lifecycle l =
                Ap16Lifecycle.parse("create5000/s;claim5100/s;complete5000/s;retry100/s;move20/s")
                        .orElseThrow();
        assertThat(l).isEqualTo(CapacityModel.AP16_LIFECYCLE);
        BigDecimal outbox = CapacityModel.writeUnits(CapacityModel.OUTBOX_ITEM_KIB);
        BigDecimal ready = CapacityModel.writeUnits(CapacityModel.READY_INDEX_ENTRY_KIB);
        assertThat(l.baseTotalWruS(outbox)).isEqualByComparingTo("40440");
        assertThat(l.readyIndexTotalWruS(ready)).isEqualByComparingTo("10240");
        assertThat(Ap16Lifecycle.parse("5000 write/s")).isEmpty();
    }

    @Test
    void changingAnInputChangesTheFigures() {
        // a doubled retry rate moves both the base and the READY index totals
        Ap16Lifecycle more = new Ap16Lifecycle(d("5000"), d("5200"), d("5000"), d("200"), d("20"));
        assertThat(more.readyIndexTotalWruS(BigDecimal.ONE)).isEqualByComparingTo("10440");
        assertThat(more.noRetryMoveFloorIndexWruS(BigDecimal.ONE)).isEqualByComparingTo("10000");
    }

    @Test
    void recomputesTheHeadlineFigures() {
        Map<String, Figure> f = CapacityModel.figures();
        assertThat(f).hasSize(46);
        assertThat(f.get("accepted_order_v1_total_units").formatted()).isEqualTo("15");
        assertThat(f.get("ap16_per_shard_wru_s").formatted()).isEqualTo("787.69");
        assertThat(f.get("ap09_receipt_shards").formatted()).isEqualTo("13");
        assertThat(f.get("query_eventual_units").formatted()).isEqualTo("3");
        assertThat(f.get("batch_eventual_units").formatted()).isEqualTo("1.5");
        assertThat(f.get("ledger_sub_buckets").formatted()).isEqualTo("8");
        assertThat(f.get("ledger_bucket_max_mib").formatted()).isEqualTo("146.48");
    }

    @Test
    void everyAmpAndLaneHasAModelDerivation() {
        assertThat(CapacityModel.amplificationBasis()).hasSize(18);
        assertThat(CapacityModel.amplificationBasis().get("AMP14").totalUnits())
                .isEqualByComparingTo("15");
        assertThat(CapacityModel.laneBasis()).hasSize(21);
        assertThat(CapacityModel.laneBasis().get("L05").unitsPerOperation())
                .isEqualByComparingTo("6.5");
    }
}
