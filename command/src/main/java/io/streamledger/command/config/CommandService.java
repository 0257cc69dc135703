package io.streamledger.command.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.aws.retry.Retrying;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.fills.BustService;
import io.streamledger.command.fills.FillCommand;
import io.streamledger.command.fills.FillService;
import io.streamledger.command.fills.TradeQueries;
import io.streamledger.command.idempotency.IdempotencyRecord;
import io.streamledger.command.idempotency.IdempotencyStore;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.ledger.BalanceQueries;
import io.streamledger.command.ledger.LedgerRules;
import io.streamledger.command.ledger.LedgerService;
import io.streamledger.command.ledger.LedgerTxnCommand;
import io.streamledger.command.ops.BreakRepository;
import io.streamledger.command.orders.CancelService;
import io.streamledger.command.orders.FillReservation;
import io.streamledger.command.orders.OrderExpiry;
import io.streamledger.command.orders.OrderQueries;
import io.streamledger.command.orders.OrderService;
import io.streamledger.command.orders.PlaceOrderCommand;
import io.streamledger.command.portfolio.PortfolioQueries;
import io.streamledger.command.repair.IdempotencyRepairWorker;
import io.streamledger.command.schedule.OrderExpirer;
import io.streamledger.command.worker.TenantDirectory;
import io.streamledger.model.table.Tables;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Wires the admission services (CS01-CS05, CS10-CS11) over one DynamoDB client. */
public final class CommandService {

    private final ServiceConfig config;
    private final TableNames tables;
    private final Ddb ddb;
    private final IdempotencyStore store;
    private final IdempotentExecutor executor;
    private final OrderService orders;
    private final OrderQueries orderQueries;
    private final FillService fills;
    private final CancelService cancels;
    private final BustService busts;
    private final TradeQueries trades;
    private final LedgerService ledger;
    private final BalanceQueries balances;
    private final PortfolioQueries portfolio;

    public CommandService(DynamoDbClient client, ServiceConfig config, RetryPolicy retry) {
        this.config = config;
        this.tables = TableNames.withPrefix(config.tablePrefix());
        this.ddb = new Ddb(client, new Retrying(retry));
        this.store =
                new IdempotencyStore(
                        ddb,
                        tables.idempotency(),
                        config.clock(),
                        config.lease(),
                        config.retention(),
                        config.repairIndexOnClaim());
        this.executor = new IdempotentExecutor(store, config.repairDelay());
        LedgerRules rules =
                new LedgerRules(config.overdraftExemptPrefixes(), config.ledgerBucketPostings());
        this.orders =
                new OrderService(
                        ddb,
                        tables,
                        executor,
                        config.buyingPower(),
                        rules::exempt,
                        new OrderExpiry(config.calendars()));
        this.orderQueries = new OrderQueries(ddb, tables);
        FillReservation fillReservation = new FillReservation(ddb, tables, config.buyingPower());
        this.fills =
                new FillService(ddb, tables, executor, fillReservation, config.symbolSharding());
        this.cancels = new CancelService(ddb, tables, executor);
        this.trades = new TradeQueries(ddb, tables, config.symbolSharding());
        this.ledger =
                new LedgerService(
                        ddb,
                        tables,
                        executor,
                        rules,
                        trades,
                        config.house(),
                        config.buyingPower().rounding());
        this.busts = new BustService(ddb, tables, executor, ledger, trades, fillReservation);
        this.balances = new BalanceQueries(ddb, tables, config.clock());
        this.portfolio = new PortfolioQueries(ddb, tables);
    }

    /**
     * The AP18 re-attempt of a queued record's effect from its canonical command; null for
     * operations without a safe automatic re-attempt (reservations), which are escalated.
     */
    public IdempotentExecutor.Effect repairEffect(IdempotencyRecord r) {
        if (r.commandJson() == null) {
            return null;
        }
        ObjectNode c = StrictJson.parseObject(r.commandJson().getBytes(StandardCharsets.UTF_8));
        switch (r.operation()) {
            case PlaceOrderCommand.OPERATION:
                {
                    PlaceOrderCommand cmd = PlaceOrderCommand.parse(Fields.of(c));
                    return (claim, m) -> orders.accept(claim, cmd, m);
                }
            case FillCommand.OPERATION:
                {
                    String orderId = c.remove("orderId").textValue();
                    FillCommand cmd = FillCommand.parse(orderId, Fields.of(c));
                    return (claim, m) -> fills.apply(claim, cmd, m);
                }
            case LedgerTxnCommand.OPERATION:
                return ledger.reattempt(r.tenant(), r.commandJson());
            case BustService.OPERATION:
                {
                    String orderId = c.get("orderId").textValue();
                    String fillId = c.get("fillId").textValue();
                    return (claim, m) -> busts.apply(claim, orderId, fillId, null, m);
                }
            default:
                return null;
        }
    }

    public IdempotencyRepairWorker repairWorker(TenantDirectory tenants, String owner) {
        return new IdempotencyRepairWorker(
                ddb, store, tenants, this::repairEffect, owner, config.repairDelay());
    }

    /** The existing conditional expiry, as the DAY/GTD expiry scheduler calls it (CS04). */
    public OrderExpirer orderExpirer() {
        return (tenant, orderId) -> cancels.expire(tenant, orderId, new CapacityMeter());
    }

    /** The AP15 break repository over this service's Reconciliation table. */
    public BreakRepository breakRepository() {
        return new BreakRepository(
                ddb.client(), tables.naming().physicalName(Tables.RECONCILIATION), config.clock());
    }

    public HttpApi http(ApiKeyAuthenticator auth) {
        return new HttpApi(
                auth,
                new HttpApi.Services(
                        orders,
                        orderQueries,
                        fills,
                        trades,
                        ledger,
                        balances,
                        portfolio,
                        new io.streamledger.command.ops.DeadLetterRepository(
                                ddb.client(),
                                tables.naming().physicalName(Tables.DEAD_LETTER),
                                config.clock(),
                                tables.naming().physicalName(Tables.RECONCILIATION)),
                        cancels,
                        opsApi(),
                        busts));
    }

    /** The breaks, batches and repair-queue routes over this service's tables. */
    public io.streamledger.command.ops.OpsApi opsApi() {
        return io.streamledger.command.ops.OpsApi.over(
                ddb.client(), tables.naming(), config.clock(), store);
    }

    public ServiceConfig config() {
        return config;
    }

    public TableNames tables() {
        return tables;
    }

    public Ddb ddb() {
        return ddb;
    }

    public IdempotencyStore store() {
        return store;
    }

    public IdempotentExecutor executor() {
        return executor;
    }

    public OrderService orders() {
        return orders;
    }

    public FillService fills() {
        return fills;
    }

    public CancelService cancels() {
        return cancels;
    }

    public BustService busts() {
        return busts;
    }

    public LedgerService ledger() {
        return ledger;
    }
}
