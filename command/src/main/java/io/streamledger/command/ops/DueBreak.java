package io.streamledger.command.ops;

/**
 * One entry of the IDX15 due queue (eventually consistent discovery; resolve against the base
 * item).
 */
public record DueBreak(String status, int shard, String dueAt, String batchId, String breakId) {}
