package io.streamledger.operators.recon;

import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One input of the reconciliation window (AP14): exactly one of a fill (Execution IDX04 trade
 * item), a trading ledger posting (IDX10, written by the posting job) or a securities authority
 * version (IDX11), as a typed fact with exact amounts. {@code eventTimeMillis} is business time
 * (fill executedAt, posting effectiveAt, authority updatedAt). A Flink POJO envelope so the window
 * state keeps an evolvable serializer.
 */
public class ReconEvent {

    public enum Kind {
        FILL,
        POSTING,
        AUTHORITY
    }

    public Kind kind;
    public String tenant;
    public long eventTimeMillis;

    public @Nullable FillFact fill;
    public @Nullable PostingFact posting;
    public @Nullable AuthorityFact authority;

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

    private static ReconEvent envelope(Kind kind, String tenant, long eventTimeMillis) {
        ReconEvent e = new ReconEvent();
        e.kind = kind;
        e.tenant = Objects.requireNonNull(tenant);
        e.eventTimeMillis = eventTimeMillis;
        return e;
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

    /** The account the fact belongs to. */
    public String account() {
        return switch (kind) {
            case FILL -> fill().account();
            case POSTING -> posting().account();
            case AUTHORITY -> authority().account();
        };
    }

    @Override
    public String toString() {
        String id =
                switch (kind) {
                    case FILL -> fill().tradeId();
                    case POSTING -> posting().txnId();
                    case AUTHORITY -> authority().account() + "/" + authority().asset();
                };
        return kind + " " + tenant + " " + id + " @" + eventTimeMillis;
    }
}
