package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Parsing of the seed's capacity render table (TASK6_CHAPTER_CAPACITY_RENDER). */
class RenderTableTest {
    @Test
    void parsesAllFiguresSkippingHeader() {
        RenderTable t = ContractResources.renderTable();
        assertThat(t.rows()).hasSize(46);
        assertThat(t.rows().get(0).resultId()).isEqualTo("standard_write_units");
        assertThat(t.rows().get(0).line()).isEqualTo(3);
        RenderRow last = t.rows().get(45);
        assertThat(last.resultId()).isEqualTo("ledger_bucket_max_mib");
        assertThat(last.value()).isEqualByComparingTo("146.48");
        assertThat(last.consequence()).isEqualTo("150000KiB/1024");
    }

    @Test
    void nonNumericResultNamesLineAndField() {
        String md = "| Result ID | Result | Consequence |\n|---|---:|---|\n| x_units | two | c |";
        assertThatThrownBy(() -> RenderTable.parse(md))
                .isInstanceOfSatisfying(
                        ContractParseException.class,
                        e -> {
                            assertThat(e.lineNumber()).isEqualTo(3);
                            assertThat(e.field()).isEqualTo("result");
                        });
    }

    @Test
    void missingCellIsRejected() {
        assertThatThrownBy(() -> RenderTable.parse("| x_units | 2 |"))
                .isInstanceOfSatisfying(
                        ContractParseException.class,
                        e -> assertThat(e.field()).isEqualTo("consequence"));
    }

    @Test
    void nonTableLineIsRejected() {
        assertThatThrownBy(() -> RenderTable.parse("x_units 2"))
                .isInstanceOf(ContractParseException.class)
                .hasMessageContaining("line 1");
    }
}
