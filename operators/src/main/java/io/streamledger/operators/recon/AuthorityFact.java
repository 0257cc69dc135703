package io.streamledger.operators.recon;

import java.math.BigDecimal;

/** One securities authority version as reconciliation sees it (AP14, IDX11 AUTH#SEC#). */
public record AuthorityFact(String account, String asset, long version, BigDecimal posted) {}
