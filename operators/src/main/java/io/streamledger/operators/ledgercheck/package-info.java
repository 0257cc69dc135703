/**
 * Continuous ledger checks (CS11, AP10–AP12 → AP15 breaks): TigerBeetle-style flat guard clauses
 * over Ledger-table change records, each violation one break with a deterministic id.
 */
package io.streamledger.operators.ledgercheck;
