/**
 * The seam between the DynamoDB engine of the local endpoint and the features built on its commit
 * log: DynamoDB Streams, Kinesis-destination forwarding and table export. Items and keys cross it
 * in DynamoDB's JSON wire form ({@code {"PK":{"S":"..."}}}) so a Streams record is the engine's
 * image verbatim.
 */
package io.streamledger.local.spi;
