/**
 * The pure ledger model (CS10, CS11, AP10–AP12): item schema names, posting-sequence allocation and
 * its limits, deterministic ids, house accounts and the rounding policy. No Flink, no AWS types.
 */
package io.streamledger.model.ledger;
