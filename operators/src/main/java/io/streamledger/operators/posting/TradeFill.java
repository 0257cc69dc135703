package io.streamledger.operators.posting;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.streamledger.model.keys.DeadLetterKey;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * One executed fill as the posting job consumes it: the TradeExecuted outbox event (CS04, AP16)
 * reduced to what the ledger needs (AP10/AP12) plus its inbox identity (AP09).
 *
 * <p>A Flink POJO (evolvable PojoSerializer; BigDecimal keeps amounts exact, CS10).
 */
public class TradeFill {

    private String eventId;
    private String tenant;
    private String tradeId;
    private String fillId;
    private String orderId;
    private String accountId;
    private String symbol;
    private String side;
    private BigDecimal quantity;
    private BigDecimal price;
    private String currency;
    private BigDecimal fee;
    private String feeCurrency;
    private long executedAtMillis;
    private long orderVersion;
    private long ingestMillis;

    // when the command service admitted the event (its occurredAt); picks the receipt's map version
    private long admittedAtMillis;

    /** The account's execution sequence (1 for its first fill); 0 on fills stamped before it. */
    private long accountExecSeq;

    /**
     * What the fill's admission recorded as pending on the client's cash / security authority
     * (AP12, signed); zero on fills admitted without a reservation. The posting settles it.
     */
    private BigDecimal pendingCash = BigDecimal.ZERO;

    private BigDecimal pendingQuantity = BigDecimal.ZERO;

    /**
     * On a fill re-injected from the dead-letter table (CS08 replay): the entry's reason, the
     * version its replay was requested at and the entry's reference ({@code DeadLetterKey#ref},
     * what the job settles); null / 0 on fills from the stream. Not part of the fill's JSON.
     */
    private String replayReason;

    private long replayVersion;

    private String replayOf;

    /** For Flink's POJO serializer. */
    public TradeFill() {}

    /** Tags this fill as the replay of the entry {@code key} requested at {@code version}. */
    public void tagReplay(DeadLetterKey key, long version) {
        replayOf = key.ref();
        replayReason = key.reason();
        replayVersion = version;
    }

    @JsonIgnore
    public String getReplayOf() {
        return replayOf;
    }

    public void setReplayOf(String replayOf) {
        this.replayOf = replayOf;
    }

    @JsonIgnore
    public String getReplayReason() {
        return replayReason;
    }

    public void setReplayReason(String replayReason) {
        this.replayReason = replayReason;
    }

    @JsonIgnore
    public long getReplayVersion() {
        return replayVersion;
    }

    public void setReplayVersion(long replayVersion) {
        this.replayVersion = replayVersion;
    }

    /** Whether this fill is a replay of a dead-letter entry. */
    @JsonIgnore
    public boolean isReplay() {
        return replayReason != null;
    }

    /** The Flink key: fills of one account are posted one after another. */
    public String accountKey() {
        return tenant + "/" + accountId;
    }

    public String getEventId() {
        return eventId;
    }

    public void setEventId(String eventId) {
        this.eventId = eventId;
    }

    public String getTenant() {
        return tenant;
    }

    public void setTenant(String tenant) {
        this.tenant = tenant;
    }

    public String getTradeId() {
        return tradeId;
    }

    public void setTradeId(String tradeId) {
        this.tradeId = tradeId;
    }

    public String getFillId() {
        return fillId;
    }

    public void setFillId(String fillId) {
        this.fillId = fillId;
    }

    public String getOrderId() {
        return orderId;
    }

    public void setOrderId(String orderId) {
        this.orderId = orderId;
    }

    public String getAccountId() {
        return accountId;
    }

    public void setAccountId(String accountId) {
        this.accountId = accountId;
    }

    public String getSymbol() {
        return symbol;
    }

    public void setSymbol(String symbol) {
        this.symbol = symbol;
    }

    public String getSide() {
        return side;
    }

    public void setSide(String side) {
        this.side = side;
    }

    public BigDecimal getQuantity() {
        return quantity;
    }

    public void setQuantity(BigDecimal quantity) {
        this.quantity = quantity;
    }

    public BigDecimal getPrice() {
        return price;
    }

    public void setPrice(BigDecimal price) {
        this.price = price;
    }

    public String getCurrency() {
        return currency;
    }

    public void setCurrency(String currency) {
        this.currency = currency;
    }

    public BigDecimal getFee() {
        return fee;
    }

    public void setFee(BigDecimal fee) {
        this.fee = fee;
    }

    public String getFeeCurrency() {
        return feeCurrency;
    }

    public void setFeeCurrency(String feeCurrency) {
        this.feeCurrency = feeCurrency;
    }

    public long getExecutedAtMillis() {
        return executedAtMillis;
    }

    public void setExecutedAtMillis(long executedAtMillis) {
        this.executedAtMillis = executedAtMillis;
    }

    public long getOrderVersion() {
        return orderVersion;
    }

    public void setOrderVersion(long orderVersion) {
        this.orderVersion = orderVersion;
    }

    public long getIngestMillis() {
        return ingestMillis;
    }

    public void setIngestMillis(long ingestMillis) {
        this.ingestMillis = ingestMillis;
    }

    /** Admission time recorded with the event (0 = unknown: admitted before it was carried). */
    public long getAdmittedAtMillis() {
        return admittedAtMillis;
    }

    public void setAdmittedAtMillis(long admittedAtMillis) {
        this.admittedAtMillis = admittedAtMillis;
    }

    public long getAccountExecSeq() {
        return accountExecSeq;
    }

    public void setAccountExecSeq(long accountExecSeq) {
        this.accountExecSeq = accountExecSeq;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TradeFill t
                && executedAtMillis == t.executedAtMillis
                && orderVersion == t.orderVersion
                && accountExecSeq == t.accountExecSeq
                && Objects.equals(eventId, t.eventId)
                && Objects.equals(tenant, t.tenant)
                && Objects.equals(tradeId, t.tradeId)
                && Objects.equals(accountId, t.accountId)
                && Objects.equals(symbol, t.symbol)
                && Objects.equals(side, t.side)
                && eq(quantity, t.quantity)
                && eq(price, t.price)
                && Objects.equals(currency, t.currency)
                && eq(fee, t.fee)
                && eq(pendingCash, t.pendingCash)
                && eq(pendingQuantity, t.pendingQuantity);
    }

    private static boolean eq(BigDecimal a, BigDecimal b) {
        return a == null ? b == null : b != null && a.compareTo(b) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(eventId, tradeId);
    }

    @Override
    public String toString() {
        return "TradeFill{"
                + eventId
                + " "
                + tenant
                + "/"
                + accountId
                + " "
                + side
                + " "
                + quantity
                + " "
                + symbol
                + " @ "
                + price
                + " "
                + currency
                + " fee "
                + fee
                + "}";
    }

    public BigDecimal getPendingCash() {
        return pendingCash;
    }

    public void setPendingCash(BigDecimal pendingCash) {
        this.pendingCash = pendingCash;
    }

    public BigDecimal getPendingQuantity() {
        return pendingQuantity;
    }

    public void setPendingQuantity(BigDecimal pendingQuantity) {
        this.pendingQuantity = pendingQuantity;
    }
}
