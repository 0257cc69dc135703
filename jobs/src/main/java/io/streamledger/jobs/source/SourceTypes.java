package io.streamledger.jobs.source;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.OutputTag;

/** Types, uids and side-output tags of the source stage, defined once. */
public final class SourceTypes {

    private SourceTypes() {}

    public static final TypeInformation<RawChange> RAW_CHANGE = Types.POJO(RawChange.class);
    public static final TypeInformation<SourceDeadLetter> DEAD_LETTER =
            Types.POJO(SourceDeadLetter.class);

    /** Records that could not be parsed or mapped; the job keeps running. */
    public static final OutputTag<SourceDeadLetter> DEAD_LETTERS =
            new OutputTag<>("source-dead-letters", DEAD_LETTER);
}
