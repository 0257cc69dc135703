/** The strict, BigDecimal-only JSON mapper every module shares (CS10). */
package io.streamledger.model.json;
