/**
 * Launcher for the npm package {@code kinesis-local} (kinesis-mock), the Kinesis Data Streams
 * implementation that local runs and integration tests use instead of AWS (Kinesis is not
 * reimplemented).
 */
package io.streamledger.local.kinesis;
