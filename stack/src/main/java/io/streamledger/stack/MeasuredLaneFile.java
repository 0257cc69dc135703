package io.streamledger.stack;

import io.streamledger.aws.metrics.DynamoDbMetric;
import io.streamledger.command.metrics.CommandMetrics;
import io.streamledger.model.contract.Contract;
import io.streamledger.model.contract.LaneRow;
import io.streamledger.model.contract.MeasuredLanes;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The measured-lane file of a run ({@code bin/capacity lanes --measured}): per LANE row whose AP
 * the command service served on the lane's route, the measured rate, units per operation and the
 * AP's max-key share (seed lane contract, from the per-AP DynamoDB metrics).
 */
final class MeasuredLaneFile {
    private MeasuredLaneFile() {}

    static List<MeasuredLanes.Measured> measure(
            Contract contract, CommandMetrics metrics, Duration window) {
        BigDecimal seconds = BigDecimal.valueOf(Math.max(1, window.toMillis())).movePointLeft(3);
        List<MeasuredLanes.Measured> out = new ArrayList<>();
        for (LaneRow lane : contract.lanes()) {
            String ap = lane.accessPattern();
            double requests = metrics.sum(DynamoDbMetric.REQUESTS, ap, lane.route());
            if (requests == 0) {
                continue;
            }
            double units =
                    metrics.sum(DynamoDbMetric.CONSUMED_READ_UNITS, ap, lane.route())
                            + metrics.sum(DynamoDbMetric.CONSUMED_WRITE_UNITS, ap, lane.route());
            Optional<Double> share = metrics.dynamo().maxKeyShare(ap);
            out.add(
                    new MeasuredLanes.Measured(
                            lane.id(),
                            BigDecimal.valueOf(requests).divide(seconds, 2, RoundingMode.HALF_UP),
                            BigDecimal.valueOf(units / requests).setScale(2, RoundingMode.HALF_UP),
                            share(lane, share)));
        }
        return out;
    }

    /** The sketch's share; without one (no LOAD_TEST_REQUIRED lane) the contract's, else 1. */
    private static BigDecimal share(LaneRow lane, Optional<Double> measured) {
        if (measured.isPresent()) {
            return BigDecimal.valueOf(measured.get()).setScale(4, RoundingMode.HALF_UP);
        }
        return lane.maxKeyShare() != null ? lane.maxKeyShare() : BigDecimal.ONE;
    }

    static void write(Path file, List<MeasuredLanes.Measured> lanes) throws IOException {
        StringBuilder sb =
                new StringBuilder("# lane|rate/s|units per op|max-key share (streamledger run)\n");
        lanes.forEach(m -> sb.append(m.line()).append('\n'));
        Files.writeString(file, sb.toString());
    }
}
