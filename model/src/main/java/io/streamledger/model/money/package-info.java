/** Exact money and quantities (CS10, CS11): currency/scale policies, rounding, allocation. */
package io.streamledger.model.money;
