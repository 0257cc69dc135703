package io.streamledger.aws.items;

/**
 * AP15 break lifecycle: OPEN and ESCALATED are in the sparse due queue (IDX15, status is part of
 * its partition key); RESOLVED leaves it (the GSI keys are removed).
 */
public enum BreakStatus {
    OPEN,
    ESCALATED,
    RESOLVED;

    public boolean queued() {
        return this != RESOLVED;
    }
}
