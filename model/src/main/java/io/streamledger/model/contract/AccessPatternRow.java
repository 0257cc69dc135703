package io.streamledger.model.contract;

/**
 * One {@code AP|} row (AP01–AP18) of the seed's access-pattern inventory; 11 fields including the
 * tag, kept as the seed's text.
 */
public record AccessPatternRow(
        int line,
        String id,
        String operation,
        String keyPredicates,
        String sortFilterOrder,
        String consistency,
        String cardinalityAndSize,
        String peakRate,
        String owner,
        String invariant,
        String failureResponse) {}
