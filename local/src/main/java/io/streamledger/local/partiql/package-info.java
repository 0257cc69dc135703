/**
 * PartiQL for the local endpoint: DynamoDB's ExecuteStatement, BatchExecuteStatement and
 * ExecuteTransaction, each statement parsed once per text and translated into the engine's own item
 * operations and expressions, so one evaluator, one capacity rule and one change-record path serve
 * both APIs (AP16/AP17 guarded writes, CS07 change records).
 */
package io.streamledger.local.partiql;
