package io.streamledger.operators.posting;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.JsonFields;
import io.streamledger.model.change.Operation;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * Reads TradeExecuted outbox events (CS04, AP16) into {@link TradeFill}s: from the Context table's
 * change records (the INSERT of an {@code OUTBOX#eventId / EVENT} item; later lifecycle MODIFYs are
 * the relay's business) or from a relayed envelope. Other items and event types are skipped; a
 * TradeExecuted event with a missing or mistyped field is an {@link IllegalArgumentException} (the
 * caller dead-letters it).
 */
public final class TradeFills {

    public static final String TRADE_EXECUTED = "TradeExecuted";

    // built once: the execution-order gate writes and reads every fill's JSON
    private static final ObjectWriter WRITER =
            JsonFields.MAPPER
                    .writerFor(TradeFill.class)
                    .with(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
    private static final ObjectReader READER = JsonFields.MAPPER.readerFor(TradeFill.class);

    private TradeFills() {}

    /** The fill as JSON (exact decimals, plain notation): the payload of a rejected fill. */
    public static String toJson(TradeFill fill) {
        try {
            return WRITER.writeValueAsString(fill);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("fill " + fill.getEventId() + " not serializable", e);
        }
    }

    /** The inverse of {@link #toJson}: the fill a gate event carries. */
    public static TradeFill fromJson(String json) {
        try {
            return READER.readValue(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a fill: " + json, e);
        }
    }

    /** The fill announced by an outbox INSERT, or empty for anything else. */
    public static Optional<TradeFill> fromChange(ChangeRecord change) {
        if (change.operation() != Operation.INSERT || change.newImage() == null) {
            return Optional.empty();
        }
        String pk = change.stringKey(Attr.PK);
        if (pk == null || !pk.startsWith(KeyPaths.IDX16_PK.literalPrefix())) {
            return Optional.empty();
        }
        OutboxEvent event = OutboxEvent.fromContextItem(change.newImage());
        return fromOutbox(event, change.approximateCreationDateTime().toEpochMilli());
    }

    /** The fill of a TradeExecuted envelope, or empty for other event types. */
    public static Optional<TradeFill> fromOutbox(OutboxEvent event, long ingestMillis) {
        if (!TRADE_EXECUTED.equals(event.eventType())) {
            return Optional.empty();
        }
        Map<String, AttributeValue> p = event.payload();
        TradeFill f = new TradeFill();
        f.setEventId(event.eventId());
        f.setTenant(text(p, "tenant"));
        f.setTradeId(text(p, "tradeId"));
        f.setFillId(text(p, "fillId"));
        f.setOrderId(text(p, "orderId"));
        f.setAccountId(text(p, "accountId"));
        f.setSymbol(text(p, "symbol"));
        f.setSide(text(p, "side"));
        f.setQuantity(number(p, "quantity"));
        f.setPrice(number(p, "price"));
        f.setCurrency(text(p, "currency"));
        f.setFee(p.containsKey("fee") ? number(p, "fee") : BigDecimal.ZERO);
        f.setFeeCurrency(p.containsKey("feeCurrency") ? text(p, "feeCurrency") : f.getCurrency());
        String executedAt = text(p, "executedAt");
        try {
            f.setExecutedAtMillis(Instant.parse(executedAt).toEpochMilli());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "TradeExecuted "
                            + event.eventId()
                            + ": executedAt '"
                            + executedAt
                            + "' is not ISO-8601");
        }
        f.setOrderVersion(
                p.containsKey("orderVersion")
                        ? number(p, "orderVersion").longValueExact()
                        : event.aggregateVersion());
        f.setIngestMillis(ingestMillis);
        f.setAdmittedAtMillis(event.occurredAt().toEpochMilli());
        // absent on events written before the account sequence existed: posted ungated
        if (p.containsKey(Attr.ACCOUNT_EXEC_SEQ)) {
            f.setAccountExecSeq(number(p, Attr.ACCOUNT_EXEC_SEQ).longValueExact());
        }
        // absent on fills admitted without a reservation: nothing pending to settle
        if (p.containsKey(Attr.PENDING_CASH)) {
            f.setPendingCash(number(p, Attr.PENDING_CASH));
        }
        if (p.containsKey(Attr.PENDING_QUANTITY)) {
            f.setPendingQuantity(number(p, Attr.PENDING_QUANTITY));
        }
        return Optional.of(f);
    }

    private static String text(Map<String, AttributeValue> p, String name) {
        if (p.get(name) instanceof AttributeValue.S s && !s.value().isEmpty()) {
            return s.value();
        }
        throw new IllegalArgumentException(
                "TradeExecuted payload field '"
                        + name
                        + "' is missing or not a string: "
                        + p.get(name));
    }

    private static BigDecimal number(Map<String, AttributeValue> p, String name) {
        if (p.get(name) instanceof AttributeValue.N n) {
            return n.bigDecimal();
        }
        throw new IllegalArgumentException(
                "TradeExecuted payload field '"
                        + name
                        + "' is missing or not a number: "
                        + p.get(name));
    }
}
