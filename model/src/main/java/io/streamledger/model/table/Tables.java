package io.streamledger.model.table;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Registry of every bounded-context table of the seed (IDX01–IDX19; DESIGN "Tables") plus the
 * dead-letter table (CS08). Stream views: NEW_AND_OLD_IMAGES where a consumer derives transitions
 * from the change itself (Orders, Execution, Ledger, Context); NEW_IMAGE where consumers only need
 * the latest state (Reconciliation); none where nothing consumes the changes (Portfolio,
 * Idempotency, Inbox, Projection) — the seed says to choose the smallest view that still supports
 * repair.
 */
public final class Tables {

    /**
     * IDX01 order root, IDX18 client-order sentinel; GSI1 IDX02 account list, GSI2 IDX03 status,
     * GSI3 the due-time queue of open DAY/GTD orders (ORDER-EXPIRY, keys only: the scheduler reads
     * the order strongly before it expires it).
     */
    public static final TableSpec ORDERS =
            new TableSpec(
                    "Orders",
                    KeySchema.PK_SK,
                    List.of(
                            new GsiSpec(
                                    "GSI1",
                                    Attr.GSI1PK,
                                    Attr.GSI1SK,
                                    GsiProjection.INCLUDE,
                                    List.of(
                                            Attr.STATUS,
                                            Attr.SYMBOL,
                                            Attr.SIDE,
                                            Attr.QUANTITY,
                                            Attr.FILLED_QUANTITY,
                                            Attr.VERSION),
                                    false,
                                    "IDX02"),
                            new GsiSpec(
                                    "GSI2",
                                    Attr.GSI2PK,
                                    Attr.GSI2SK,
                                    GsiProjection.INCLUDE,
                                    List.of(
                                            Attr.STATUS,
                                            Attr.SYMBOL,
                                            Attr.SIDE,
                                            Attr.QUANTITY,
                                            Attr.FILLED_QUANTITY,
                                            Attr.VERSION),
                                    true,
                                    "IDX03"),
                            new GsiSpec(
                                    "GSI3",
                                    Attr.EXPIRY_PK,
                                    Attr.EXPIRY_SK,
                                    GsiProjection.KEYS_ONLY,
                                    List.of(),
                                    true,
                                    "ORDER-EXPIRY")),
                    StreamViewType.NEW_AND_OLD_IMAGES,
                    null,
                    List.of("IDX01", "IDX18"),
                    "order status/version transitions feed ledger checks and reconciliation",
                    false);

    /** IDX04 fills under their order; GSI1 IDX05 by account, GSI2 IDX06 by symbol. */
    public static final TableSpec EXECUTION =
            new TableSpec(
                    "Execution",
                    KeySchema.PK_SK,
                    List.of(
                            new GsiSpec(
                                    "GSI1",
                                    Attr.GSI1PK,
                                    Attr.GSI1SK,
                                    GsiProjection.INCLUDE,
                                    List.of(
                                            Attr.ORDER_ID,
                                            Attr.SYMBOL,
                                            Attr.SIDE,
                                            Attr.QUANTITY,
                                            Attr.PRICE,
                                            Attr.CURRENCY),
                                    false,
                                    "IDX05"),
                            new GsiSpec(
                                    "GSI2",
                                    Attr.GSI2PK,
                                    Attr.GSI2SK,
                                    GsiProjection.INCLUDE,
                                    List.of(
                                            Attr.ORDER_ID,
                                            Attr.ACCOUNT,
                                            Attr.QUANTITY,
                                            Attr.PRICE,
                                            Attr.CURRENCY),
                                    false,
                                    "IDX06")),
                    StreamViewType.NEW_AND_OLD_IMAGES,
                    null,
                    List.of("IDX04"),
                    "fills are reconciled against the ledger; old image proves a fill was not"
                            + " rewritten",
                    false);

    /**
     * IDX07 portfolio view; one physical table per namespace version ({@code Portfolio_v3}), the
     * live one named by the {@code ALIAS#portfolio / ALIAS} item in {@link #PROJECTION}.
     */
    /**
     * The Portfolio namespace version a fresh deployment writes and reads ({@code Portfolio_v1})
     * until a backfill cuts the alias over to a newer one: the projection job's default and the
     * command service's fallback when no alias item exists.
     */
    public static final int PORTFOLIO_INITIAL_VERSION = 1;

    public static final TableSpec PORTFOLIO =
            new TableSpec(
                    "Portfolio",
                    KeySchema.PK_SK,
                    List.of(),
                    null,
                    null,
                    List.of("IDX07"),
                    "derived and rebuildable; reconciliation reads it by key or export, nobody"
                            + " consumes its changes",
                    true);

    /**
     * IDX08 request state (and the time-driven duties' lease items, DUTY-LEASE, the AP08 lease
     * pattern: not a route of their own, their calls count as AP08); GSI1 IDX19 sparse repair queue
     * on {@code GSI1PK}/{@code GSI1SK} (the same overloaded GSI1 attribute names as the other
     * tables), set only in REPAIR_REQUIRED.
     */
    public static final TableSpec IDEMPOTENCY =
            new TableSpec(
                    "Idempotency",
                    KeySchema.PK_SK,
                    List.of(
                            new GsiSpec(
                                    "GSI1",
                                    Attr.GSI1PK,
                                    Attr.GSI1SK,
                                    GsiProjection.KEYS_ONLY,
                                    List.of(),
                                    true,
                                    "IDX19")),
                    null,
                    Attr.EXPIRES_AT,
                    List.of("IDX08"),
                    "the repair worker discovers work through the sparse IDX19 queue, not CDC",
                    false);

    /** IDX09 consumer receipts (13 shards). */
    public static final TableSpec INBOX =
            new TableSpec(
                    "Inbox",
                    KeySchema.PK_SK,
                    List.of(),
                    null,
                    Attr.EXPIRES_AT,
                    List.of("IDX09"),
                    "receipts are only read by key inside the consumer's transaction",
                    false);

    /** IDX10 postings, IDX11 cash/securities authority. */
    public static final TableSpec LEDGER =
            new TableSpec(
                    "Ledger",
                    KeySchema.PK_SK,
                    List.of(),
                    StreamViewType.NEW_AND_OLD_IMAGES,
                    null,
                    List.of("IDX10", "IDX11"),
                    "projection and ledger-check jobs derive balance transitions (old vs new"
                            + " authority version) and prove postings are never updated",
                    false);

    /** IDX12 checkpoints (7 shards) and the projection alias items. */
    public static final TableSpec PROJECTION =
            new TableSpec(
                    "Projection",
                    KeySchema.PK_SK,
                    List.of(),
                    null,
                    null,
                    List.of("IDX12"),
                    "checkpoints are written and read by the projection job itself; the alias is"
                            + " read on startup",
                    false);

    /** IDX13 batches, IDX14 breaks; GSI1 IDX15 sparse due queue. */
    public static final TableSpec RECONCILIATION =
            new TableSpec(
                    "Reconciliation",
                    KeySchema.PK_SK,
                    List.of(
                            new GsiSpec(
                                    "GSI1",
                                    Attr.GSI1PK,
                                    Attr.GSI1SK,
                                    GsiProjection.KEYS_ONLY,
                                    List.of(),
                                    true,
                                    "IDX15")),
                    StreamViewType.NEW_IMAGE,
                    null,
                    List.of("IDX13", "IDX14"),
                    "break alerting needs the new break state only; resolution is a conditional"
                            + " base write",
                    false);

    /**
     * IDX16 outbox envelope; GSI3 IDX17 sparse READY queue on readyPk/readySk; GSI4 the sparse
     * lease-expiry queue of IN_FLIGHT items on leasePk/leaseSk (OUTBOX-LEASE, AP16 step 4); TTL
     * removes COMPLETED items after their retention (cleanup only).
     */
    public static final TableSpec CONTEXT =
            new TableSpec(
                    "Context",
                    KeySchema.PK_SK,
                    List.of(
                            new GsiSpec(
                                    "GSI3",
                                    Attr.READY_PK,
                                    Attr.READY_SK,
                                    GsiProjection.KEYS_ONLY,
                                    List.of(),
                                    true,
                                    "IDX17"),
                            new GsiSpec(
                                    "GSI4",
                                    Attr.LEASE_PK,
                                    Attr.LEASE_SK,
                                    GsiProjection.KEYS_ONLY,
                                    List.of(),
                                    true,
                                    "OUTBOX-LEASE")),
                    StreamViewType.NEW_AND_OLD_IMAGES,
                    Attr.EXPIRES_AT,
                    List.of("IDX16"),
                    "the relay and auditors see READY/IN_FLIGHT/COMPLETED transitions of the"
                            + " outbox item",
                    false);

    /**
     * Durable dead letters of every job (CS08): {@code TEN#t#DLQ#job / DL#reason#id}; GSI1 the
     * sparse status queue of OPEN entries ({@link io.streamledger.model.keys.DeadLetterStatusKey}).
     * Not a seed path: its ids ({@code DLQ}, {@code DLQ-STATUS}) stay out of the seed contract.
     */
    public static final TableSpec DEAD_LETTER =
            new TableSpec(
                    "DeadLetter",
                    KeySchema.PK_SK,
                    List.of(
                            new GsiSpec(
                                    "GSI1",
                                    Attr.GSI1PK,
                                    Attr.GSI1SK,
                                    GsiProjection.KEYS_ONLY,
                                    List.of(),
                                    true,
                                    "DLQ-STATUS")),
                    null,
                    null,
                    List.of("DLQ"),
                    "operators list entries through the sparse status queue; nothing consumes"
                            + " its changes, and entries are never deleted (audit)",
                    false);

    private static final List<TableSpec> ALL =
            List.of(
                    ORDERS,
                    EXECUTION,
                    PORTFOLIO,
                    IDEMPOTENCY,
                    INBOX,
                    LEDGER,
                    PROJECTION,
                    RECONCILIATION,
                    CONTEXT,
                    DEAD_LETTER);

    private static final Map<String, TableSpec> BY_NAME =
            ALL.stream()
                    .collect(
                            Collectors.toUnmodifiableMap(
                                    TableSpec::logicalName, Function.identity()));

    private Tables() {}

    /** Every table, in seed order. */
    public static List<TableSpec> all() {
        return ALL;
    }

    /** A table by logical name, e.g. {@code Orders}. */
    public static TableSpec byLogicalName(String logicalName) {
        TableSpec spec = BY_NAME.get(logicalName);
        if (spec == null) {
            throw new IllegalArgumentException(
                    "no table '" + logicalName + "'; known: " + BY_NAME.keySet());
        }
        return spec;
    }

    /** {@code Portfolio_v<version>} without prefix. */
    public static String portfolioPhysicalName(int version) {
        return TableNaming.NONE.physicalName(PORTFOLIO, version);
    }
}
