package io.streamledger.jobs.source;

import java.io.Serializable;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What a job reads: a stream of raw transport records with timestamps and watermarks (STYLE habit
 * 2: the job takes its source as an argument; production wires {@link ChangeSources}).
 */
@FunctionalInterface
public interface RawChangeSource extends Serializable {
    DataStream<RawChange> open(StreamExecutionEnvironment env);
}
