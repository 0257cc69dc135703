package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * Parses the seed's TASK6_MODEL block ({@code AP|}, {@code INDEX|}, {@code MAP|}, {@code LANE|},
 * {@code AMP|} rows) into typed rows; numbers are exact decimals and {@code NA} is absent.
 */
public final class ContractParser {
    /** Marker the seed uses for "not measured yet" in numeric LANE fields. */
    public static final String NOT_AVAILABLE = "NA";

    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");
    private static final Pattern AP_ID = Pattern.compile("AP\\d{2}");
    private static final Pattern INDEX_ID = Pattern.compile("IDX\\d{2}");
    private static final Pattern AMP_ID = Pattern.compile("AMP\\d{2}");

    private static final List<String> AP_FIELDS =
            List.of(
                    "tag",
                    "id",
                    "operation",
                    "keyPredicates",
                    "sortFilterOrder",
                    "consistency",
                    "cardinalityAndSize",
                    "peakRate",
                    "owner",
                    "invariant",
                    "failureResponse");
    private static final List<String> INDEX_FIELDS =
            List.of(
                    "tag",
                    "id",
                    "kind",
                    "table",
                    "pk",
                    "sk",
                    "role",
                    "readConsequence",
                    "accessPatterns");
    private static final List<String> MAP_FIELDS = List.of("tag", "accessPattern", "indexes");
    private static final List<String> LANE_FIELDS =
            List.of(
                    "tag",
                    "id",
                    "accessPattern",
                    "route",
                    "peakRateContract",
                    "unitKind",
                    "rate",
                    "unitsPerOperation",
                    "maxKeyShare",
                    "shards",
                    "targetUnitsPerSecond",
                    "loadPerShard",
                    "state",
                    "evidence");
    private static final List<String> AMP_FIELDS =
            List.of(
                    "tag",
                    "id",
                    "accessPatterns",
                    "scenario",
                    "baseUnits",
                    "baseMultiplier",
                    "gsiUnits",
                    "gsiMultiplier",
                    "totalUnits",
                    "consequence");

    private ContractParser() {}

    /** Parses the block's text (the lines inside the seed's {@code ```text} fence). */
    public static Contract parse(String text) {
        List<AccessPatternRow> aps = new ArrayList<>();
        List<IndexRow> indexes = new ArrayList<>();
        List<MapRow> maps = new ArrayList<>();
        List<LaneRow> lanes = new ArrayList<>();
        List<AmplificationRow> amps = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String raw = lines[i];
            if (raw.isBlank()) {
                continue; // a trailing newline or separating blank line carries no row
            }
            Row row = new Row(i + 1, raw.split("\\|", -1));
            switch (row.fields[0]) {
                case "AP" -> aps.add(parseAccessPattern(row));
                case "INDEX" -> indexes.add(parseIndex(row));
                case "MAP" -> maps.add(parseMap(row));
                case "LANE" -> lanes.add(parseLane(row));
                case "AMP" -> amps.add(parseAmplification(row));
                default ->
                        throw new ContractParseException(
                                row.line,
                                "tag",
                                "unknown row tag '"
                                        + row.fields[0]
                                        + "', expected AP, INDEX, MAP, LANE or AMP");
            }
        }
        return new Contract(aps, indexes, maps, lanes, amps);
    }

    private static AccessPatternRow parseAccessPattern(Row row) {
        row.expect(AP_FIELDS);
        return new AccessPatternRow(
                row.line,
                row.id(1, AP_ID),
                row.text(2),
                row.text(3),
                row.text(4),
                row.text(5),
                row.text(6),
                row.text(7),
                row.text(8),
                row.text(9),
                row.text(10));
    }

    private static IndexRow parseIndex(Row row) {
        row.expect(INDEX_FIELDS);
        return new IndexRow(
                row.line,
                row.id(1, INDEX_ID),
                row.text(2),
                row.text(3),
                row.text(4),
                row.text(5),
                row.text(6),
                row.text(7),
                row.ids(8, AP_ID));
    }

    private static MapRow parseMap(Row row) {
        row.expect(MAP_FIELDS);
        return new MapRow(row.line, row.id(1, AP_ID), row.ids(2, INDEX_ID));
    }

    private static LaneRow parseLane(Row row) {
        row.expect(LANE_FIELDS);
        return new LaneRow(
                row.line,
                row.text(1),
                row.id(2, AP_ID),
                row.text(3),
                row.text(4),
                row.enumValue(5, UnitKind.class),
                row.number(6),
                row.number(7),
                row.optionalNumber(8),
                row.optionalNumber(9),
                row.number(10),
                row.optionalNumber(11),
                row.enumValue(12, LaneState.class),
                row.text(13));
    }

    private static AmplificationRow parseAmplification(Row row) {
        row.expect(AMP_FIELDS);
        return new AmplificationRow(
                row.line,
                row.id(1, AMP_ID),
                row.ids(2, AP_ID),
                row.text(3),
                row.number(4),
                row.number(5),
                row.number(6),
                row.number(7),
                row.number(8),
                row.text(9));
    }

    /** Parses an exact non-negative decimal, rejecting exponents, signs and blanks. */
    static BigDecimal exactNumber(String text, int line, String field) {
        if (!NUMBER.matcher(text).matches()) {
            throw new ContractParseException(
                    line, field, "expected a non-negative decimal number, got '" + text + "'");
        }
        return new BigDecimal(text);
    }

    /** One split row with the field names of its tag, so every error names its field. */
    private static final class Row {
        private final int line;
        private final String[] fields;
        private List<String> names = List.of();

        Row(int line, String[] fields) {
            this.line = line;
            this.fields = fields;
        }

        void expect(List<String> fieldNames) {
            names = fieldNames;
            if (fields.length != fieldNames.size()) {
                String field =
                        fields.length < fieldNames.size()
                                ? fieldNames.get(fields.length)
                                : "fieldCount";
                throw new ContractParseException(
                        line,
                        field,
                        fields[0]
                                + " row has "
                                + fields.length
                                + " fields, expected "
                                + fieldNames.size()
                                + " "
                                + fieldNames);
            }
        }

        String name(int index) {
            return names.get(index);
        }

        String text(int index) {
            String value = fields[index];
            if (value.isBlank() || !value.equals(value.strip())) {
                throw new ContractParseException(
                        line, name(index), "blank or padded value '" + value + "'");
            }
            return value;
        }

        String id(int index, Pattern pattern) {
            String value = text(index);
            if (!pattern.matcher(value).matches()) {
                throw new ContractParseException(
                        line, name(index), "'" + value + "' does not match " + pattern.pattern());
            }
            return value;
        }

        List<String> ids(int index, Pattern pattern) {
            List<String> values = Arrays.asList(text(index).split(",", -1));
            for (String value : values) {
                if (!pattern.matcher(value).matches()) {
                    throw new ContractParseException(
                            line,
                            name(index),
                            "list element '" + value + "' does not match " + pattern.pattern());
                }
            }
            return values;
        }

        BigDecimal number(int index) {
            return exactNumber(text(index), line, name(index));
        }

        @Nullable
        BigDecimal optionalNumber(int index) {
            String value = text(index);
            return NOT_AVAILABLE.equals(value) ? null : exactNumber(value, line, name(index));
        }

        <E extends Enum<E>> E enumValue(int index, Class<E> type) {
            String value = text(index);
            try {
                return Enum.valueOf(type, value);
            } catch (IllegalArgumentException e) {
                throw new ContractParseException(
                        line,
                        name(index),
                        "unknown "
                                + type.getSimpleName()
                                + " '"
                                + value
                                + "', expected one of "
                                + Arrays.toString(type.getEnumConstants()));
            }
        }
    }
}
