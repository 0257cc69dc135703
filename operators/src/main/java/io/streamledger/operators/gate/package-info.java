/**
 * The gate (AP09, AP13, CS06, CS07): per source key, apply versions exactly once and in order, park
 * early ones behind a visible gap, break overdue gaps, and dedupe business event ids. Entry point:
 * {@link io.streamledger.operators.gate.Gate#apply}; contract constants: {@link
 * io.streamledger.operators.gate.GateState}.
 */
package io.streamledger.operators.gate;
