/**
 * Flink functions: next-version gate, inbox, parking and gap timers, projection, ledger checks,
 * reconciliation.
 */
package io.streamledger.operators;
