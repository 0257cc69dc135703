package io.streamledger.operators.gate;

import org.apache.flink.api.common.state.MapStateDescriptor;
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
    public static final TypeInformation<ParkedGap> PARKED_GAP = Types.POJO(ParkedGap.class);
    public static final TypeInformation<ParkedReplay> PARKED_REPLAY =
            Types.POJO(ParkedReplay.class);

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

    /**
     * Applied eventId to the processing time it was applied at. A receipt older than the dedupe
     * horizon is ignored on read and removed by the key's purge timer.
     */
    public static final MapStateDescriptor<String, Long> INBOX_SEEN =
            new MapStateDescriptor<>("gate-inbox-seen", Types.STRING, Types.LONG);

    /** The key's one pending purge timer; absent when the key holds no receipts. */
    public static final ValueStateDescriptor<Long> INBOX_PURGE_AT =
            new ValueStateDescriptor<>("gate-inbox-purge-at", Types.LONG);

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

    /**
     * Gap opened, moved, overdue or closed (arrival or skip), for the durable parked-gap record.
     */
    public static final OutputTag<ParkedGap> PARKED_GAPS =
            new OutputTag<>("gate-parked-gaps", PARKED_GAP);

    /** A replayed event parked behind a gap (its dead-letter entry says so until it applies). */
    public static final OutputTag<ParkedReplay> PARKED_REPLAYS =
            new OutputTag<>("gate-parked-replays", PARKED_REPLAY);

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("gate-dead-letters", DEAD_LETTER);
}
