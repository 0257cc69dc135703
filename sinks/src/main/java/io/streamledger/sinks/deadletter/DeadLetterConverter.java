package io.streamledger.sinks.deadletter;

import io.streamledger.aws.deadletter.DeadLetterEntry;
import java.io.Serializable;

/** Turns one side-output record of a job into the dead-letter entry that keeps it (CS08). */
@FunctionalInterface
public interface DeadLetterConverter<T> extends Serializable {
    DeadLetterEntry toEntry(T record);
}
