package io.streamledger.operators.posting;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.OutputTag;

/** Uids, names and types of the posting job's operators, defined once. */
public final class PostingState {

    private PostingState() {}

    public static final TypeInformation<TradeFill> FILL = Types.POJO(TradeFill.class);
    public static final TypeInformation<PostingOutcome> OUTCOME = Types.POJO(PostingOutcome.class);

    /** Fills the rules reject with a named reason (nothing written): the rejected sink's input. */
    public static final OutputTag<PostingOutcome> REJECTED =
            new OutputTag<>("posting-rejected", OUTCOME);

    public static final String PARSE_UID = "posting-parse-v1";
    public static final String GUARD_UID = "posting-guard-v1";
    public static final String GUARD_NAME = "posting: reject unpostable fills (named reasons)";
    public static final String PARSE_NAME = "posting: parse TradeExecuted (AP16)";
    public static final String POST_UID = "posting-transact-v1";
    public static final String POST_NAME =
            "posting: ledger txn + receipt + authority (AP09/AP10/AP12)";

    /** The transaction sink (writer uid); the async operator it replaces had {@link #POST_UID}. */
    public static final String SINK_UID = "posting-transact-sink-v1";

    public static final String SINK_NAME =
            "posting: ledger txn + receipt + authority sink (AP09/AP10/AP12)";

    /** Metric group of the posting operators. */
    public static final String METRIC_GROUP = "posting";
}
