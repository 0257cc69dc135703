package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Mutation tests ("changing any single number in the block must make verify fail"): every number in
 * every LANE and AMP row, and every render-table value, is moved by one unit in its last digit, up
 * and down, one at a time; {@code verify} must report a violation each time.
 */
class ContractMutationTest {
    /** Every digit run, including those inside ids (AP09, L16B, AMP07) and text (create5000/s). */
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:\\.\\d+)?");

    private static final String MODEL = ContractResources.modelText();
    private static final String RENDER = ContractResources.renderText();

    /** One single-token change of a text. */
    record Mutation(String name, String text) {}

    @TestFactory
    Stream<DynamicTest> everyLaneAndAmpNumberMutationIsDetected() {
        List<Mutation> mutations =
                mutateRows(MODEL, l -> l.startsWith("LANE|") || l.startsWith("AMP|"));
        return mutations.stream()
                .map(
                        m ->
                                DynamicTest.dynamicTest(
                                        m.name(),
                                        () ->
                                                assertThat(violationsOrParseError(m.text(), RENDER))
                                                        .as(m.name())
                                                        .isNotEmpty()));
    }

    @TestFactory
    Stream<DynamicTest> everyRenderValueMutationIsDetected() {
        List<Mutation> mutations = new ArrayList<>();
        String[] lines = RENDER.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String[] cells = lines[i].split("\\|", -1);
            if (cells.length != 5 || !NUMBER.matcher(cells[2].strip()).matches()) {
                continue; // header, alignment row, trailing newline
            }
            String value = cells[2].strip();
            for (String changed : neighbours(value)) {
                String[] copy = lines.clone();
                copy[i] =
                        String.join(
                                "|", cells[0], cells[1], " " + changed + " ", cells[3], cells[4]);
                mutations.add(
                        new Mutation(
                                cells[1].strip() + " " + value + "->" + changed,
                                String.join("\n", copy)));
            }
        }
        assertThat(mutations).hasSize(46 * 2 - countZeros(RENDER));
        return mutations.stream()
                .map(
                        m ->
                                DynamicTest.dynamicTest(
                                        m.name(),
                                        () -> {
                                            String id =
                                                    m.name().substring(0, m.name().indexOf(' '));
                                            assertThat(
                                                            ContractVerifier.verify(
                                                                    ContractResources.contract(),
                                                                    RenderTable.parse(m.text())))
                                                    .anyMatch(
                                                            v ->
                                                                    v.rule().equals("RENDER")
                                                                            && v.subject()
                                                                                    .equals(id));
                                        }));
    }

    @Test
    void mutationsCoverEveryNumericLaneAndAmpField() {
        List<Mutation> mutations =
                mutateRows(MODEL, l -> l.startsWith("LANE|") || l.startsWith("AMP|"));
        // 21 lanes and 18 AMP rows each carry several numbers; spot-check that the generator
        // reaches the numeric columns, the ids and the rate text
        assertThat(mutations)
                .extracting(Mutation::name)
                .contains(
                        "line 64 field 11 '769.23'->'769.24'", // L09A load/shard
                        "line 64 field 9 '13'->'12'", // L09A shards
                        "line 74 field 4 '5100'->'5101'", // L16B lifecycle claim rate
                        "line 80 field 7 '1'->'2'", // AMP04 GSI multiplier on zero GSI units
                        "line 84 field 5 '1'->'2'"); // AMP08 base multiplier on zero base
        assertThat(mutations.size()).isGreaterThan(400);
    }

    private static int countZeros(String render) {
        int zeros = 0;
        for (String line : render.split("\n")) {
            String[] cells = line.split("\\|", -1);
            if (cells.length == 5 && cells[2].strip().matches("0(\\.0+)?")) {
                zeros++;
            }
        }
        return zeros;
    }

    /** Generates one mutation per digit run and direction in the selected rows. */
    static List<Mutation> mutateRows(String text, java.util.function.Predicate<String> rows) {
        List<Mutation> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!rows.test(lines[i])) {
                continue;
            }
            String[] fields = lines[i].split("\\|", -1);
            for (int f = 1; f < fields.length; f++) {
                Matcher m = NUMBER.matcher(fields[f]);
                while (m.find()) {
                    for (String changed : neighbours(m.group())) {
                        String[] fieldCopy = fields.clone();
                        fieldCopy[f] =
                                fields[f].substring(0, m.start())
                                        + changed
                                        + fields[f].substring(m.end());
                        String[] lineCopy = lines.clone();
                        lineCopy[i] = String.join("|", fieldCopy);
                        out.add(
                                new Mutation(
                                        "line " + (i + 1) + " field " + f + " '" + m.group()
                                                + "'->'" + changed + "'",
                                        String.join("\n", lineCopy)));
                    }
                }
            }
        }
        return out;
    }

    /** The token plus and minus one unit in its last digit, keeping scale and zero-padding. */
    static List<String> neighbours(String token) {
        BigDecimal value = new BigDecimal(token);
        BigDecimal ulp = BigDecimal.ONE.movePointLeft(value.scale());
        int intWidth = token.contains(".") ? token.indexOf('.') : token.length();
        List<String> out = new ArrayList<>();
        for (BigDecimal changed : List.of(value.add(ulp), value.subtract(ulp))) {
            if (changed.signum() < 0) {
                continue;
            }
            String plain = changed.toPlainString();
            int width = plain.contains(".") ? plain.indexOf('.') : plain.length();
            out.add("0".repeat(Math.max(0, intWidth - width)) + plain);
        }
        return out;
    }

    private static List<String> violationsOrParseError(String model, String render) {
        try {
            return ContractVerifier.verify(ContractParser.parse(model), RenderTable.parse(render))
                    .stream()
                    .map(Violation::toString)
                    .toList();
        } catch (ContractParseException e) {
            return List.of("parse error: " + e.getMessage()); // also a failed verify
        }
    }
}
