/**
 * Watermark rules shared by the jobs' sources (CS11 deadlines, AP14 windows): {@link
 * io.streamledger.operators.watermark.SlowestShard}, the slowest shard that is not quiet holds the
 * watermark back.
 */
package io.streamledger.operators.watermark;
