/**
 * Flink sinks to DynamoDB: version-guarded conditional writes, transactional effect writes, break
 * writer.
 */
package io.streamledger.sinks;
