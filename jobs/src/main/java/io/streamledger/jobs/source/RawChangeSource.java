package io.streamledger.jobs.source;

import java.io.Serializable;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What a job reads: a stream of raw transport records with timestamps and watermarks; every job
 * takes it as an argument, production wires {@link ChangeSources}, tests a bounded list.
 */
@FunctionalInterface
public interface RawChangeSource extends Serializable {
    DataStream<RawChange> open(StreamExecutionEnvironment env);
}
