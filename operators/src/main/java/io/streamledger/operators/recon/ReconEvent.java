package io.streamledger.operators.recon;

import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One input of the reconciliation (AP14): exactly one of a fill (Execution IDX04 trade item), a
 * trading ledger posting (IDX10, written by the posting job), a securities authority version
 * (IDX11), an order version (IDX01, input of the order ↔ fill check only) or an order ↔ fill
 * finding of that check (into the window of its subject), as a typed fact with exact amounts.
 * {@code eventTimeMillis} is business time (fill executedAt, posting effectiveAt, authority and
 * order updatedAt, a finding's subject time). A Flink POJO envelope so the window state keeps an
 * evolvable serializer.
 */
public class ReconEvent {

    public enum Kind {
        FILL,
        POSTING,
        AUTHORITY,
        ORDER,
        ORDER_FILL,
        /** A record that came after its window closed, listed by the next batch revision. */
        LATE
    }

    public Kind kind;
    public String tenant;
    public long eventTimeMillis;

    public @Nullable FillFact fill;
    public @Nullable PostingFact posting;
    public @Nullable AuthorityFact authority;
    public @Nullable OrderFact order;
    public @Nullable OrderFillFinding finding;

    /** For {@link Kind#LATE}: the late record's subject and business time. */
    public @Nullable String lateSubject;

    public long lateEventTimeMillis;

    /** The order a fill or an order version belongs to (null for other kinds). */
    public @Nullable String orderId;

    /** A fill's order version (the version its admission wrote) or an order's version; else 0. */
    public long orderVersion;

    /** For a busted fill: the order version its bust wrote (the fill counts below it); else 0. */
    public long bustOrderVersion;

    /**
     * The stream shard the record was read from, for the per-shard business-time watermarks ({@link
     * ShardBusinessTimeWatermarks}); null when it holds no shard's watermark back (a replay, an
     * export).
     */
    public @Nullable String sourceShard;

    public ReconEvent() {}

    public static ReconEvent of(String tenant, long eventTimeMillis, FillFact fill) {
        ReconEvent e = envelope(Kind.FILL, tenant, eventTimeMillis);
        e.fill = Objects.requireNonNull(fill);
        return e;
    }

    public static ReconEvent of(String tenant, long eventTimeMillis, PostingFact posting) {
        ReconEvent e = envelope(Kind.POSTING, tenant, eventTimeMillis);
        e.posting = Objects.requireNonNull(posting);
        return e;
    }

    public static ReconEvent of(String tenant, long eventTimeMillis, AuthorityFact authority) {
        ReconEvent e = envelope(Kind.AUTHORITY, tenant, eventTimeMillis);
        e.authority = Objects.requireNonNull(authority);
        return e;
    }

    /** A fill that names its order and the order version its admission wrote (CS04). */
    public static ReconEvent of(
            String tenant, long eventTimeMillis, FillFact fill, String orderId, long orderVersion) {
        ReconEvent e = of(tenant, eventTimeMillis, fill);
        e.orderId = Objects.requireNonNull(orderId);
        e.orderVersion = orderVersion;
        return e;
    }

    public static ReconEvent of(String tenant, long eventTimeMillis, OrderFact order) {
        ReconEvent e = envelope(Kind.ORDER, tenant, eventTimeMillis);
        e.order = Objects.requireNonNull(order);
        e.orderId = order.orderId();
        e.orderVersion = order.version();
        return e;
    }

    public static ReconEvent of(String tenant, long eventTimeMillis, OrderFillFinding finding) {
        ReconEvent e = envelope(Kind.ORDER_FILL, tenant, eventTimeMillis);
        e.finding = Objects.requireNonNull(finding);
        return e;
    }

    /** A marker of {@code late}, placed at {@code atMillis} (a window still open). */
    public static ReconEvent lateMarker(ReconEvent late, long atMillis) {
        ReconEvent e = envelope(Kind.LATE, late.tenant, atMillis);
        e.lateSubject = late.kind + ":" + late.subject();
        e.lateEventTimeMillis = late.eventTimeMillis;
        return e;
    }

    private static ReconEvent envelope(Kind kind, String tenant, long eventTimeMillis) {
        ReconEvent e = new ReconEvent();
        e.kind = kind;
        e.tenant = Objects.requireNonNull(tenant);
        e.eventTimeMillis = eventTimeMillis;
        return e;
    }

    /** True for a fill that counts towards its order's filled quantity at {@code version}. */
    public boolean fillCountsAt(long version) {
        return orderVersion >= 1
                && orderVersion <= version
                && (bustOrderVersion == 0 || version < bustOrderVersion);
    }

    /** The fill; only for {@link Kind#FILL}. */
    public FillFact fill() {
        return Objects.requireNonNull(fill, "not a fill");
    }

    /** The posting; only for {@link Kind#POSTING}. */
    public PostingFact posting() {
        return Objects.requireNonNull(posting, "not a posting");
    }

    /** The authority version; only for {@link Kind#AUTHORITY}. */
    public AuthorityFact authority() {
        return Objects.requireNonNull(authority, "not an authority");
    }

    /** The order version; only for {@link Kind#ORDER}. */
    public OrderFact order() {
        return Objects.requireNonNull(order, "not an order");
    }

    /** The order ↔ fill finding; only for {@link Kind#ORDER_FILL}. */
    public OrderFillFinding finding() {
        return Objects.requireNonNull(finding, "not an order/fill finding");
    }

    /** The account the fact belongs to (a finding names its subject instead). */
    public String account() {
        return switch (kind) {
            case FILL -> fill().account();
            case POSTING -> posting().account();
            case AUTHORITY -> authority().account();
            case ORDER -> order().account();
            case ORDER_FILL -> finding().subject;
            case LATE -> lateSubject;
        };
    }

    /** What the record is about, e.g. {@code trade:o1:f1} (dead letters, logs). */
    public String subject() {
        return switch (kind) {
            case FILL -> "trade:" + fill().tradeId();
            case POSTING -> "txn:" + posting().txnId() + "#" + posting().line();
            case AUTHORITY ->
                    "authority:"
                            + authority().account()
                            + "/"
                            + authority().asset()
                            + "@"
                            + authority().version();
            case ORDER -> "order:" + order().orderId() + "@" + order().version();
            case ORDER_FILL -> "finding:" + finding().breakId();
            case LATE -> "late:" + lateSubject;
        };
    }

    @Override
    public String toString() {
        return kind + " " + tenant + " " + subject() + " @" + eventTimeMillis;
    }
}
