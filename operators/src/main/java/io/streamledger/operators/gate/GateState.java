package io.streamledger.operators.gate;

import java.time.Duration;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.OutputTag;

/**
 * The gate's wire contract in one place (AP09/AP13): operator uids and names, keyed state
 * descriptors with explicit types, and side-output tags, shared by the functions, {@link Gate} and
 * the State Processor API bootstrap in savepoints/.
 *
 * <p>Renaming any uid or state name orphans the state in existing savepoints: change them only with
 * a migration.
 */
public final class GateState {

    private GateState() {}

    // ---- types (POJO serializers: evolvable, never Kryo) ----

    public static final TypeInformation<GateEvent> GATE_EVENT = Types.POJO(GateEvent.class);
    public static final TypeInformation<DeadLetter> DEAD_LETTER = Types.POJO(DeadLetter.class);
    public static final TypeInformation<GapNotice> GAP_NOTICE = Types.POJO(GapNotice.class);
    public static final TypeInformation<GapBreak> GAP_BREAK = Types.POJO(GapBreak.class);
    public static final TypeInformation<OpenGap> OPEN_GAP_TYPE = Types.POJO(OpenGap.class);

    /** Key type of every gate operator: {@link GateEvent#getSourceKey()}. */
    public static final TypeInformation<String> SOURCE_KEY = Types.STRING;

    // ---- operator uids (stable across releases) and display names ----

    public static final String VALIDATE_UID = "gate-validate-v1";
    public static final String VALIDATE_NAME = "gate: validate";
    public static final String NEXT_VERSION_UID = "gate-next-version-v1";
    public static final String NEXT_VERSION_NAME = "gate: next version (AP13)";
    public static final String INBOX_UID = "gate-inbox-v1";
    public static final String INBOX_NAME = "gate: inbox dedupe (AP09)";

    /** Metric group every gate operator registers under. */
    public static final String METRIC_GROUP = "gate";

    // ---- NextVersionGate keyed state ----

    /** Last applied version of the key; absent means 0 (the key expects version 1). */
    public static final ValueStateDescriptor<Long> VERSION =
            new ValueStateDescriptor<>("gate-version", Types.LONG);

    /** Events above {@code current + 1}, by version, waiting for the missing one. */
    public static final MapStateDescriptor<Long, GateEvent> PARKED =
            new MapStateDescriptor<>("gate-parked", Types.LONG, GATE_EVENT);

    /** Present exactly while the key holds parked events. */
    public static final ValueStateDescriptor<OpenGap> OPEN_GAP =
            new ValueStateDescriptor<>("gate-open-gap", OPEN_GAP_TYPE);

    // ---- InboxDedupe keyed state ----

    public static final String INBOX_SEEN_NAME = "gate-inbox-seen";

    /**
     * Applied eventId to the version it was applied at, expiring after the dedupe horizon. TTL is
     * part of the state's serialized form, so a bootstrap must build it with this same factory.
     */
    public static MapStateDescriptor<String, Long> inboxSeen(Duration dedupeHorizon) {
        MapStateDescriptor<String, Long> d =
                new MapStateDescriptor<>(INBOX_SEEN_NAME, Types.STRING, Types.LONG);
        d.enableTimeToLive(inboxTtl(dedupeHorizon));
        return d;
    }

    /**
     * Processing-time TTL from the receipt's write; expired receipts are never returned. Cleanup
     * costs: the heap backend sweeps {@value #INBOX_CLEANUP_ENTRIES_PER_RECORD} entries per
     * processed record (per-record, because sweeping on state access alone did not run for map
     * state in tests) and leaves expired ones out of full snapshots; RocksDB drops them in its
     * compaction filter, re-reading the clock every {@value #ROCKSDB_TTL_QUERY_TIME_AFTER_ENTRIES}
     * entries. Each receipt carries an extra 8-byte timestamp. Without a sweep, receipts of keys
     * that go quiet would stay until the next full snapshot or compaction.
     */
    public static StateTtlConfig inboxTtl(Duration dedupeHorizon) {
        return StateTtlConfig.newBuilder(dedupeHorizon)
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                .cleanupFullSnapshot()
                .cleanupIncrementally(INBOX_CLEANUP_ENTRIES_PER_RECORD, true)
                .cleanupInRocksdbCompactFilter(ROCKSDB_TTL_QUERY_TIME_AFTER_ENTRIES)
                .build();
    }

    static final int INBOX_CLEANUP_ENTRIES_PER_RECORD = 5;
    static final long ROCKSDB_TTL_QUERY_TIME_AFTER_ENTRIES = 1_000L;

    // ---- side outputs ----

    /** {@code version <= current}: a re-delivery or a late copy; counted no-op. */
    public static final OutputTag<GateEvent> STALE = new OutputTag<>("gate-stale", GATE_EVENT);

    /** A re-delivery of a parked event, or an applied eventId seen again within the horizon. */
    public static final OutputTag<GateEvent> DUPLICATES =
            new OutputTag<>("gate-duplicates", GATE_EVENT);

    public static final OutputTag<GapNotice> GAP_NOTICES =
            new OutputTag<>("gate-gap-notices", GAP_NOTICE);

    public static final OutputTag<GapBreak> GAP_BREAKS =
            new OutputTag<>("gate-gap-breaks", GAP_BREAK);

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("gate-dead-letters", DEAD_LETTER);
}
