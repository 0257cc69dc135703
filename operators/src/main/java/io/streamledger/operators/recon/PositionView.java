package io.streamledger.operators.recon;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * What the AP07 Portfolio row shows for one account+symbol: its source version and quantity.
 *
 * @param sourceVersion authority version the row was projected from
 * @param quantity posted quantity in the row
 */
public record PositionView(long sourceVersion, BigDecimal quantity) implements Serializable {}
