package io.streamledger.model.contract;

import java.math.BigDecimal;

/**
 * One row of the seed's capacity render table (TASK6_CHAPTER_CAPACITY_RENDER): a result id, its
 * exact value as written, and the stated consequence.
 */
public record RenderRow(int line, String resultId, BigDecimal value, String consequence) {}
