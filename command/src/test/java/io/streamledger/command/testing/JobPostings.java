package io.streamledger.command.testing;

import io.streamledger.aws.items.ModelAv;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.fills.FillService;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.posting.FillPostingRules;
import io.streamledger.operators.posting.PostingPlan;
import io.streamledger.operators.posting.PostingTransactionPlan;
import io.streamledger.operators.posting.TradeFill;
import io.streamledger.operators.posting.TradeFills;
import io.streamledger.sinks.posting.LedgerItems;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * Posts an admitted fill the way the posting job does (AP09 + AP10 + AP12), without Flink: its
 * TradeExecuted outbox event decoded by the job's {@link TradeFills}, planned by the job's {@link
 * FillPostingRules} and {@link PostingTransactionPlan}, encoded by the job sink's {@link
 * LedgerItems} and written as one TransactWriteItems — the same items the job writes.
 */
public final class JobPostings {

    private final DynamoDbClient client;
    private final TableNaming naming;
    private final FillPostingRules rules =
            new FillPostingRules(
                    RoundingPolicy.DEFAULT, new HouseAccounts(HouseAccounts.DEFAULT_SHARDS));

    public JobPostings(DynamoDbClient client, String prefix) {
        this.client = client;
        this.naming = new TableNaming(prefix);
        TableProvisioner.create(client, Tables.INBOX, naming.physicalName(Tables.INBOX));
    }

    /** Posts the fill {@code orderId:fillId}; returns its txnId. */
    public String post(String orderId, String fillId) {
        String tradeId = orderId + ":" + fillId;
        Map<String, AttributeValue> item =
                client.getItem(
                                GetItemRequest.builder()
                                        .tableName(naming.physicalName(Tables.CONTEXT))
                                        .key(
                                                OutboxItems.key(
                                                        DeterministicIds.eventId(
                                                                tradeId,
                                                                FillService.EVENT_TRADE_EXECUTED,
                                                                1)))
                                        .consistentRead(true)
                                        .build())
                        .item();
        TradeFill fill =
                TradeFills.fromOutbox(
                                OutboxEventCodec.fromItem(ModelAv.fromSdk(item), "$"),
                                System.currentTimeMillis())
                        .orElseThrow();
        PostingPlan plan = rules.plan(fill);
        String ledger = naming.physicalName(Tables.LEDGER);
        Map<String, PostingSequence.Counter> counters = new LinkedHashMap<>();
        for (String account : PostingTransactionPlan.accounts(plan)) {
            counters.put(
                    account,
                    LedgerItemCodec.counterFrom(
                            client.getItem(
                                            GetItemRequest.builder()
                                                    .tableName(ledger)
                                                    .key(
                                                            LedgerItemCodec.key(
                                                                    new MonthCounterKey(
                                                                            plan.tenant(),
                                                                            account,
                                                                            PostingTransactionPlan
                                                                                    .month(
                                                                                            plan
                                                                                                    .effectiveAt()))))
                                                    .consistentRead(true)
                                                    .build())
                                    .item()));
        }
        PostingTransactionPlan tx =
                PostingTransactionPlan.build(
                        fill,
                        plan,
                        counters,
                        new PostingTransactionPlan.ReceiptPolicy("posting", Duration.ofDays(7)),
                        Instant.now().truncatedTo(ChronoUnit.MILLIS),
                        (p, line, eventId, at) ->
                                LedgerItemCodec.postingBytes(
                                        LedgerItems.posting(p, line, eventId, at)),
                        PostingSequence.MAX_POSTINGS_PER_MONTH);
        client.transactWriteItems(
                TransactWriteItemsRequest.builder()
                        .transactItems(
                                LedgerItems.encode(tx, ledger, naming.physicalName(Tables.INBOX)))
                        .build());
        return plan.txnId();
    }
}
