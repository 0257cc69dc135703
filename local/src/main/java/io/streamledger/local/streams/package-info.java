/**
 * DynamoDB Streams for the local endpoint: per-table streams with hashed shards, the four view
 * types, shard rollover, iterator expiry and 24-hour retention, served as the {@code
 * DynamoDBStreams_20120810.*} API (CS07: per-item order only; AP13/AP16 consumers).
 */
package io.streamledger.local.streams;
