package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The AP16 outbox lifecycle rates (create/claim/complete/retry/move per second) and the write units
 * they cost on the base item (IDX16) and on the sparse READY GSI (IDX17), following the seed's AP16
 * state machine: create is transactional, the other transitions are ordinary updates; READY appears
 * on create and retry, disappears on claim, and a reschedule moves it (delete+put).
 */
public record Ap16Lifecycle(
        BigDecimal create,
        BigDecimal claim,
        BigDecimal complete,
        BigDecimal retry,
        BigDecimal move) {
    private static final Pattern TEXT =
            Pattern.compile(
                    "create(\\d+)/s;claim(\\d+)/s;complete(\\d+)/s;retry(\\d+)/s;move(\\d+)/s");
    private static final BigDecimal DELETE_PLUS_PUT = new BigDecimal("2");

    /** Reads the seed's rate text, e.g. {@code create5000/s;claim5100/s;...;move20/s}. */
    public static Optional<Ap16Lifecycle> parse(String peakRateText) {
        Matcher m = TEXT.matcher(peakRateText);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(
                new Ap16Lifecycle(
                        new BigDecimal(m.group(1)),
                        new BigDecimal(m.group(2)),
                        new BigDecimal(m.group(3)),
                        new BigDecimal(m.group(4)),
                        new BigDecimal(m.group(5))));
    }

    public BigDecimal createBaseWruS(BigDecimal outboxUnits) {
        return create.multiply(outboxUnits).multiply(CapacityModel.TRANSACTION_FACTOR);
    }

    public BigDecimal claimBaseWruS(BigDecimal outboxUnits) {
        return claim.multiply(outboxUnits);
    }

    public BigDecimal completeBaseWruS(BigDecimal outboxUnits) {
        return complete.multiply(outboxUnits);
    }

    public BigDecimal retryBaseWruS(BigDecimal outboxUnits) {
        return retry.multiply(outboxUnits);
    }

    public BigDecimal rescheduleBaseWruS(BigDecimal outboxUnits) {
        return move.multiply(outboxUnits);
    }

    /** IDX16 work: create+claim+complete+retry+reschedule. */
    public BigDecimal baseTotalWruS(BigDecimal outboxUnits) {
        return createBaseWruS(outboxUnits)
                .add(claimBaseWruS(outboxUnits))
                .add(completeBaseWruS(outboxUnits))
                .add(retryBaseWruS(outboxUnits))
                .add(rescheduleBaseWruS(outboxUnits));
    }

    public BigDecimal readyCreateInsertWruS(BigDecimal readyUnits) {
        return create.multiply(readyUnits).multiply(CapacityModel.GSI_WRITE_MULTIPLIER);
    }

    public BigDecimal readyClaimDeleteWruS(BigDecimal readyUnits) {
        return claim.multiply(readyUnits).multiply(CapacityModel.GSI_WRITE_MULTIPLIER);
    }

    public BigDecimal readyRetryInsertWruS(BigDecimal readyUnits) {
        return retry.multiply(readyUnits).multiply(CapacityModel.GSI_WRITE_MULTIPLIER);
    }

    public BigDecimal readyRescheduleMoveWruS(BigDecimal readyUnits) {
        return move.multiply(DELETE_PLUS_PUT)
                .multiply(readyUnits)
                .multiply(CapacityModel.GSI_WRITE_MULTIPLIER);
    }

    /** Inserts of new events plus the claims that remove them (claims minus retried claims). */
    public BigDecimal noRetryMoveFloorIndexWruS(BigDecimal readyUnits) {
        return create.add(claim.subtract(retry))
                .multiply(readyUnits)
                .multiply(CapacityModel.GSI_WRITE_MULTIPLIER);
    }

    /** IDX17 work: every sparse-index lifecycle action. */
    public BigDecimal readyIndexTotalWruS(BigDecimal readyUnits) {
        return readyCreateInsertWruS(readyUnits)
                .add(readyClaimDeleteWruS(readyUnits))
                .add(readyRetryInsertWruS(readyUnits))
                .add(readyRescheduleMoveWruS(readyUnits));
    }
}
