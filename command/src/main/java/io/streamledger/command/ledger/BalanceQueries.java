package io.streamledger.command.ledger;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.Schema;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.model.ledger.LedgerSchema;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * GET /v1/accounts/{a}/balances: the AP12 authority items (IDX11), read strongly; the account's
 * AP11 statement reads are {@link #statements()}.
 */
public final class BalanceQueries {

    /** Authorities per page; an account holds one per asset, so most reads take one page. */
    static final int PAGE = 100;

    private final Ddb ddb;
    private final TableNames tables;

    private final java.time.Clock clock;

    public BalanceQueries(Ddb ddb, TableNames tables) {
        this(ddb, tables, java.time.Clock.systemUTC());
    }

    public BalanceQueries(Ddb ddb, TableNames tables, java.time.Clock clock) {
        this.ddb = ddb.ap("AP12");
        this.tables = tables;
        this.clock = clock;
    }

    /** The AP11 statement and month summary of an account. */
    public StatementQueries statements() {
        return new StatementQueries(ddb.ap("AP11"), tables, clock);
    }

    public ObjectNode balances(String tenant, String accountId, CapacityMeter meter) {
        Fields.checkId("account id", accountId);
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        ArrayNode out = body.putArray("balances");
        for (Authority a : authorities(tenant, accountId, meter)) {
            out.add(a.view());
        }
        body.put("consistency", "strong");
        return body;
    }

    /** Every AP12 authority of the account (cash, then securities), read strongly. */
    public java.util.List<Authority> authorities(
            String tenant, String accountId, CapacityMeter meter) {
        java.util.List<Authority> out = new java.util.ArrayList<>();
        for (String prefix :
                new String[] {
                    LedgerSchema.CASH_AUTHORITY_SK_PREFIX, LedgerSchema.SECURITY_AUTHORITY_SK_PREFIX
                }) {
            for (Map<String, AttributeValue> item :
                    ddb.queryAll(
                            QueryRequest.builder()
                                    .tableName(tables.ledger())
                                    .keyConditionExpression("#pk = :pk AND begins_with(#sk, :auth)")
                                    .expressionAttributeNames(
                                            Map.of("#pk", Schema.PK, "#sk", Schema.SK))
                                    .expressionAttributeValues(
                                            Map.of(
                                                    ":pk",
                                                    Av.s(Schema.accountPk(tenant, accountId)),
                                                    ":auth",
                                                    Av.s(prefix)))
                                    .consistentRead(true)
                                    .limit(PAGE),
                            meter)) {
                out.add(Authority.from(tenant, item));
            }
        }
        return out;
    }
}
