/**
 * Job entry points, source wiring (DynamoDB Streams / Kinesis), configuration, CLI, local stack
 * launcher.
 */
package io.streamledger.jobs;
