package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Parsing of the seed's TASK6_MODEL rows: counts, exact numbers, NA, and precise errors. */
class ContractParserTest {
    private static final String LANE_L09A =
            "LANE|L09A|AP09|IDX09|5000 write/s|WRITE|5000|2|1|13|800|769.23|FEASIBLE_PLANNING|"
                    + "fixed consumer scope hashes eventId over versioned shards";

    @Test
    void parsesEveryRowOfTheBundledBlock() {
        Contract c = ContractResources.contract();
        assertThat(c.accessPatterns()).hasSize(18);
        assertThat(c.indexes()).hasSize(19);
        assertThat(c.maps()).hasSize(18);
        assertThat(c.lanes()).hasSize(21);
        assertThat(c.amplifications()).hasSize(18);
    }

    @Test
    void apRowKeepsTheSeedText() {
        AccessPatternRow ap16 = ContractResources.contract().accessPattern("AP16").orElseThrow();
        assertThat(ap16.cardinalityAndSize()).isEqualTo("1x1.6KiB+0.45KiB READY index");
        assertThat(ap16.peakRate())
                .isEqualTo("create5000/s;claim5100/s;complete5000/s;retry100/s;move20/s");
        assertThat(ap16.failureResponse()).isEqualTo("lease/retry/reconcile");
    }

    @Test
    void indexRowKeepsKeyPatternsAndApList() {
        IndexRow idx10 = ContractResources.contract().index("IDX10").orElseThrow();
        assertThat(idx10.pk()).isEqualTo("TEN#t#ACCT#a#MONTH#yyyy-mm#BKT#nn");
        assertThat(idx10.sk()).isEqualTo("POST#at#txn#line");
        assertThat(idx10.accessPatterns()).containsExactly("AP10", "AP11");
        assertThat(idx10.isBase()).isTrue();
    }

    @Test
    void laneNumbersAreExactDecimals() {
        LaneRow l06 =
                ContractResources.contract().lanes().stream()
                        .filter(l -> l.id().equals("L06"))
                        .findFirst()
                        .orElseThrow();
        assertThat(l06.maxKeyShare()).isEqualTo(new BigDecimal("0.08"));
        assertThat(l06.loadPerShard()).isEqualTo(new BigDecimal("800.0")); // scale kept as written
        assertThat(l06.unitKind()).isEqualTo(UnitKind.READ);
        assertThat(l06.state()).isEqualTo(LaneState.FEASIBLE_PLANNING);
    }

    @Test
    void naIsAbsentNotZero() {
        LaneRow l01 = ContractResources.contract().lanes().get(0);
        assertThat(l01.id()).isEqualTo("L01");
        assertThat(l01.maxKeyShare()).isNull();
        assertThat(l01.shards()).isNull();
        assertThat(l01.loadPerShard()).isNull();
        assertThat(l01.targetUnitsPerSecond()).isEqualByComparingTo("2400");
    }

    @Test
    void ampRowParsesAllTenFields() {
        AmplificationRow amp14 = ContractResources.contract().amplification("AMP14").orElseThrow();
        assertThat(amp14.accessPatterns())
                .containsExactly("AP01", "AP02", "AP03", "AP08", "AP16", "AP17");
        assertThat(amp14.scenario()).isEqualTo("accepted_order_v1 complete route");
        assertThat(amp14.baseUnits()).isEqualByComparingTo("6");
        assertThat(amp14.baseMultiplier()).isEqualByComparingTo("2");
        assertThat(amp14.totalUnits()).isEqualByComparingTo("15");
    }

    @Test
    void wrongFieldCountNamesLineAndFirstMissingField() {
        String text = "MAP|AP01|IDX01\n" + LANE_L09A.substring(0, LANE_L09A.lastIndexOf('|'));
        assertThatThrownBy(() -> ContractParser.parse(text))
                .isInstanceOfSatisfying(
                        ContractParseException.class,
                        e -> {
                            assertThat(e.lineNumber()).isEqualTo(2);
                            assertThat(e.field()).isEqualTo("evidence");
                        })
                .hasMessageContaining("14");
    }

    @Test
    void extraFieldIsReported() {
        assertThatThrownBy(() -> ContractParser.parse("MAP|AP01|IDX01|IDX02"))
                .isInstanceOfSatisfying(
                        ContractParseException.class,
                        e -> assertThat(e.field()).isEqualTo("fieldCount"));
    }

    @Test
    void nonNumericRateNamesTheField() {
        String bad = LANE_L09A.replace("|WRITE|5000|", "|WRITE|5k|");
        assertParseError(bad, "rate");
    }

    @Test
    void exponentAndSignAreRejected() {
        assertParseError(LANE_L09A.replace("|769.23|", "|7.6923E2|"), "loadPerShard");
        assertParseError(LANE_L09A.replace("|13|", "|-13|"), "shards");
    }

    @Test
    void unknownStateWordIsRejected() {
        assertParseError(LANE_L09A.replace("FEASIBLE_PLANNING", "FEASIBLE"), "state");
    }

    @Test
    void unknownUnitKindIsRejected() {
        assertParseError(LANE_L09A.replace("|WRITE|", "|WRITES|"), "unitKind");
    }

    @Test
    void badApReferenceInListIsRejected() {
        assertParseError("INDEX|IDX10|BASE|Ledger|PK|SK|role|strong|AP10,APX1", "accessPatterns");
    }

    @Test
    void blankFieldIsRejected() {
        assertParseError("AMP|AMP01|AP01,AP02|order create||1|1|1|3|base+account GSI", "baseUnits");
    }

    @Test
    void unknownTagIsRejected() {
        assertParseError("\n\nROUTE|L01|AP01", "tag");
    }

    @Test
    void blankLinesAreSkippedAndLineNumbersCountThem() {
        Contract c = ContractParser.parse("\nMAP|AP01|IDX01\n\n");
        assertThat(c.maps()).singleElement().extracting(MapRow::line).isEqualTo(2);
    }

    private static void assertParseError(String text, String field) {
        assertThatThrownBy(() -> ContractParser.parse(text))
                .isInstanceOfSatisfying(
                        ContractParseException.class,
                        e -> {
                            assertThat(e.field()).isEqualTo(field);
                            assertThat(e.lineNumber()).isEqualTo(text.split("\n", -1).length);
                            assertThat(e.getMessage()).startsWith("line ");
                        });
    }
}
