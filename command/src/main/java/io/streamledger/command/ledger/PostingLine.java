package io.streamledger.command.ledger;

import java.math.BigDecimal;

/**
 * One immutable posting of a ledger transaction (CS11): signed exact amount, positive credits the
 * account's holding of the asset, negative debits it.
 */
public record PostingLine(int line, String accountId, Asset asset, BigDecimal amount) {}
