/**
 * Change records (DynamoDB Streams and Kinesis Data Streams for DynamoDB) and the AP16 outbox
 * envelope, on an SDK-free attribute-value model.
 */
package io.streamledger.model.change;
