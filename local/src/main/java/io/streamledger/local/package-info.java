/**
 * Embedded DynamoDB-compatible endpoint (DynamoDB, Streams, Kinesis-destination forwarding,
 * export), fault injection, kinesis-local launcher.
 */
package io.streamledger.local;
