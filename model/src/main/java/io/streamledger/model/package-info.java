/**
 * Domain model: money, identifiers, key grammar (IDX01-IDX19), shard hash, table specs, change
 * records, capacity contract. No Flink, no AWS SDK.
 */
package io.streamledger.model;
