package io.streamledger.model.table;

/**
 * Attribute names shared by the command service, the jobs and the local endpoint (seed "Key and
 * index design", AP08, AP09, AP13, AP16): one spelling, defined once.
 */
public final class Attr {
    /** Base partition key of every table. */
    public static final String PK = "PK";

    /** Base sort key of every table. */
    public static final String SK = "SK";

    /** GSI1 keys: Orders IDX02, Execution IDX05, Reconciliation IDX15, Idempotency IDX19. */
    public static final String GSI1PK = "GSI1PK";

    public static final String GSI1SK = "GSI1SK";

    /** GSI2 keys: Orders IDX03 (sparse), Execution IDX06. */
    public static final String GSI2PK = "GSI2PK";

    public static final String GSI2SK = "GSI2SK";

    /** GSI3 keys of Context IDX17, named by the seed's outbox state machine. */
    public static final String READY_PK = "readyPk";

    public static final String READY_SK = "readySk";

    /** GSI3 keys of Orders: the sparse due-time queue of open DAY/GTD orders (ORDER-EXPIRY). */
    public static final String EXPIRY_PK = "expiryPk";

    public static final String EXPIRY_SK = "expirySk";

    /** GSI4 keys of Context: the sparse lease-expiry queue of IN_FLIGHT outbox items (AP16). */
    public static final String LEASE_PK = "leasePk";

    public static final String LEASE_SK = "leaseSk";

    /** Aggregate/item version for compare-and-set (seed "Conditions and versions"). */
    public static final String VERSION = "version";

    /** Source aggregate version a projection applied (AP13, CS06). */
    public static final String SOURCE_VERSION = "sourceVersion";

    /** Shard-hash function version stored with every sharded item (AP09, AP13, AP16). */
    public static final String HASH_VERSION = "hashVersion";

    /** Shard-map version stored with every sharded item. */
    public static final String SHARD_MAP_VERSION = "shardMapVersion";

    /**
     * When the event was admitted (ISO-8601, recorded with the event as its {@code occurredAt}):
     * stored on AP09 receipts, it picks the event's shard-map version during a reshard.
     */
    public static final String ADMITTED_AT = "admittedAt";

    /** TTL attribute (epoch seconds): cleanup only, never a lease decision (AP08). */
    public static final String EXPIRES_AT = "expiresAt";

    /** Lifecycle state, e.g. IN_PROGRESS / COMPLETED / REPAIR_REQUIRED, READY / IN_FLIGHT. */
    public static final String STATE = "state";

    /** Lease expiry and owner for takeovers (AP08, AP16, AP18). */
    public static final String LEASE_UNTIL = "leaseUntil";

    public static final String LEASE_OWNER = "attemptOwner";

    /** Item type discriminator inside an overloaded table. */
    public static final String ENTITY_TYPE = "entityType";

    /** Fingerprint of a command (AP08). */
    public static final String FINGERPRINT = "fingerprint";

    /** Outbox envelope fields of the Context IDX16 item (AP16). */
    public static final String EVENT_ID = "eventId";

    public static final String AGGREGATE_TYPE = "aggregateType";
    public static final String AGGREGATE_ID = "aggregateId";
    public static final String AGGREGATE_VERSION = "aggregateVersion";
    public static final String EVENT_TYPE = "eventType";
    public static final String SCHEMA_VERSION = "schemaVersion";
    public static final String OCCURRED_AT = "occurredAt";
    public static final String TRACE_ID = "traceId";
    public static final String CAUSATION_ID = "causationId";
    public static final String PAYLOAD = "payload";

    /** Projection alias item: the active namespace version, e.g. 3 for Portfolio_v3. */
    public static final String ACTIVE_VERSION = "activeVersion";

    /**
     * Projection alias and proof items: the view scope of the namespace ({@code all}/{@code
     * clients}, {@code ViewScope}); absent = all.
     */
    public static final String VIEW_SCOPE = "viewScope";

    /** Summary attributes projected into the listing GSIs (IDX02, IDX03, IDX05, IDX06). */
    public static final String STATUS = "status";

    public static final String SYMBOL = "symbol";
    public static final String SIDE = "side";
    public static final String QUANTITY = "quantity";
    public static final String FILLED_QUANTITY = "filledQuantity";
    public static final String PRICE = "price";
    public static final String CURRENCY = "currency";
    public static final String ORDER_ID = "orderId";
    public static final String ACCOUNT = "account";
    public static final String CREATED_AT = "createdAt";

    /** The order version a trade's admission wrote (trade item, CS04): its order ↔ fill link. */
    public static final String ORDER_VERSION = "orderVersion";

    /** The order version a trade bust wrote (trade item): the trade counts below it only (CS04). */
    public static final String BUST_ORDER_VERSION = "bustOrderVersion";

    /** When a trade was busted (trade item, ISO-8601). */
    public static final String BUSTED_AT = "bustedAt";

    /**
     * Per-client-account execution sequence: the counter item's value, the trade item's and the
     * TradeExecuted payload's stamp (1 for an account's first fill; absent on older fills).
     */
    public static final String ACCOUNT_EXEC_SEQ = "accountExecSeq";

    /**
     * TradeExecuted payload: what the fill's admission added to the client's AP12 cash / security
     * {@code pending} (signed; absent when it recorded nothing), which its posting moves to posted.
     */
    public static final String PENDING_CASH = "pendingCash";

    public static final String PENDING_QUANTITY = "pendingQuantity";

    private Attr() {}
}
