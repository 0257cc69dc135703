/**
 * Reconciliation (AP14/AP15): the break record every check emits, evidence, and the windowed fills
 * ↔ ledger ↔ projection reconciliation.
 */
package io.streamledger.operators.recon;
