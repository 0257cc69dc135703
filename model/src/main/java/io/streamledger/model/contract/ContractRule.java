package io.streamledger.model.contract;

import java.util.List;

/** One consistency rule over the parsed TASK6_MODEL contract; returns its violations. */
interface ContractRule {
    List<Violation> check(Contract contract);
}
