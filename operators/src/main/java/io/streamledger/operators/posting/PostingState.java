package io.streamledger.operators.posting;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/** Uids, names and types of the posting job's operators, defined once (STYLE habit 4). */
public final class PostingState {

    private PostingState() {}

    public static final TypeInformation<TradeFill> FILL = Types.POJO(TradeFill.class);
    public static final TypeInformation<PostingOutcome> OUTCOME = Types.POJO(PostingOutcome.class);

    public static final String PARSE_UID = "posting-parse-v1";
    public static final String PARSE_NAME = "posting: parse TradeExecuted (AP16)";
    public static final String POST_UID = "posting-transact-v1";
    public static final String POST_NAME =
            "posting: ledger txn + receipt + authority (AP09/AP10/AP12)";

    /** Metric group of the posting operator. */
    public static final String METRIC_GROUP = "posting";
}
