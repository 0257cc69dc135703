package io.streamledger.command.config;

import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;

/**
 * Physical names of the bounded-context tables the command service writes (seed "Table-boundary
 * decision"), from the model's TableSpecs behind a deployment prefix.
 */
public record TableNames(
        String orders, String execution, String idempotency, String ledger, String context) {

    public static TableNames withPrefix(String prefix) {
        TableNaming n = new TableNaming(prefix);
        return new TableNames(
                n.physicalName(Tables.ORDERS),
                n.physicalName(Tables.EXECUTION),
                n.physicalName(Tables.IDEMPOTENCY),
                n.physicalName(Tables.LEDGER),
                n.physicalName(Tables.CONTEXT));
    }
}
