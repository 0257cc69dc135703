package io.streamledger.stack;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each element (dead letters, rejected fills, gap breaks) to the launcher's log file at WARN
 * so nothing bad is silently dropped in the demo (COMMON "bad input loses nothing"; AP15 stand-in
 * until the break table's writer is wired).
 */
final class LoggingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    private final String label;

    LoggingSink(String label) {
        this.label = label;
    }

    @Override
    @Deprecated
    public SinkWriter<T> createWriter(InitContext context) {
        return writer();
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        return writer();
    }

    private SinkWriter<T> writer() {
        Logger log = LoggerFactory.getLogger(LoggingSink.class);
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context context) {
                log.warn("{}: {}", label, element);
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
