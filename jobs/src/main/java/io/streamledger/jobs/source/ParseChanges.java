package io.streamledger.jobs.source;

import io.streamledger.jobs.config.JobOptions.KinesisPayload;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.KinesisDynamoDbRecordParser;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.SourcePosition;
import io.streamledger.model.change.Transport;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Parses raw transport records into the model's {@link ChangeRecord} (or {@link OutboxEvent}) and
 * maps them to the job's events; anything that fails goes to {@link SourceTypes#DEAD_LETTERS} with
 * the raw payload and the reason, and the job keeps running (CS08).
 *
 * <p>The {@code ChangeRecord} lives only inside this function: it never crosses a network edge, so
 * no serializer for its attribute-value maps is needed (no Kryo).
 */
public final class ParseChanges<T> extends ProcessFunction<RawChange, T> {

    private static final long serialVersionUID = 1L;

    /** Dead-letter reasons. */
    public static final String UNPARSEABLE = "UNPARSEABLE_RECORD";

    public static final String UNMAPPABLE = "UNMAPPABLE_EVENT";

    private final String tableName;
    private final KinesisPayload kinesisPayload;
    private final RecordMapper<T> mapper;

    private transient Counter parsed;
    private transient Counter skipped;
    private transient Counter deadLettered;

    /**
     * @param tableName the table whose DynamoDB stream is read (Streams records do not name it)
     * @param kinesisPayload what Kinesis records carry
     */
    public ParseChanges(String tableName, KinesisPayload kinesisPayload, RecordMapper<T> mapper) {
        this.tableName = tableName;
        this.kinesisPayload = kinesisPayload;
        this.mapper = mapper;
    }

    @Override
    public void open(OpenContext ctx) {
        var group = getRuntimeContext().getMetricGroup().addGroup("source");
        parsed = group.counter("parsed");
        skipped = group.counter("skipped");
        deadLettered = group.counter("deadLettered");
    }

    @Override
    public void processElement(RawChange raw, Context ctx, Collector<T> out) {
        Optional<T> event;
        try {
            event = parse(raw);
        } catch (Failure e) {
            deadLetter(raw, e.reason(), e.getMessage(), ctx);
            return;
        }
        parsed.inc();
        if (event.isPresent()) {
            out.collect(event.get());
        } else {
            skipped.inc();
        }
    }

    /**
     * This job's parse step for one raw record (also the one a replayed source dead letter goes
     * through again): the mapped event, empty if the record is none of this job's.
     *
     * @throws Failure with the dead-letter reason ({@link #UNPARSEABLE}, {@link #UNMAPPABLE})
     */
    public Optional<T> parse(RawChange raw) throws Failure {
        try {
            return decodeAndMap(raw);
        } catch (DecodeFailure e) {
            throw new Failure(UNPARSEABLE, e.getMessage());
        } catch (RuntimeException e) {
            throw new Failure(UNMAPPABLE, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private Optional<T> decodeAndMap(RawChange raw) throws DecodeFailure {
        if (raw.getData() == null) {
            throw new DecodeFailure("record has no data");
        }
        if (Transport.DYNAMODB_STREAMS.name().equals(raw.getTransport())) {
            ChangeRecord change;
            try {
                change = ConnectorRecordJson.parse(raw.getData(), tableName, raw.getShardId());
            } catch (Exception e) {
                throw new DecodeFailure(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            return mapper.fromChange(change);
        }
        if (kinesisPayload == KinesisPayload.OUTBOX_EVENT) {
            OutboxEvent event;
            try {
                event = OutboxEvent.fromJson(new String(raw.getData(), StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                throw new DecodeFailure(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            return mapper.fromOutbox(event);
        }
        ChangeRecord change;
        try {
            SourcePosition pos =
                    raw.getShardId() == null || raw.getSequenceNumber() == null
                            ? null
                            : new SourcePosition(raw.getShardId(), raw.getSequenceNumber());
            change =
                    KinesisDynamoDbRecordParser.parse(
                            new String(raw.getData(), StandardCharsets.UTF_8), pos);
        } catch (RuntimeException e) {
            throw new DecodeFailure(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return mapper.fromChange(change);
    }

    private void deadLetter(RawChange raw, String reason, String detail, Context ctx) {
        deadLettered.inc();
        ctx.output(
                SourceTypes.DEAD_LETTERS,
                SourceDeadLetter.of(
                        raw, reason, detail, ctx.timerService().currentProcessingTime()));
    }

    /** A record the parse step sets aside, with its dead-letter reason. */
    public static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        private final String reason;

        Failure(String reason, String message) {
            super(message);
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    /** The bytes are not a record of the expected format. */
    private static final class DecodeFailure extends Exception {
        private static final long serialVersionUID = 1L;

        DecodeFailure(String message) {
            super(message);
        }
    }
}
