package io.streamledger.local.streams;

import io.streamledger.local.spi.ItemChange;
import java.time.Instant;

/**
 * One record stored in a shard: the engine's change plus its stream identity (CS07).
 *
 * @param sequence numeric sequence number (see {@link SequenceNumbers#format})
 * @param eventId unique id of the record
 * @param change the committed change
 * @param appendedAt when the stream received it, on the streams clock (drives retention)
 */
public record StreamEntry(long sequence, String eventId, ItemChange change, Instant appendedAt) {}
