package io.streamledger.sinks.versioned;

/**
 * Which condition protects a write (seed CS06/AP13 for versions, AP15 break rows for create-once).
 */
public enum GuardStrategy {
    /**
     * UpdateItem with {@code attribute_not_exists(PK) OR version < :v}: a write applies only if it
     * is newer than what the item holds, so replays and old savepoints never move an item
     * backwards. Within one flush the newest version per item wins.
     */
    VERSION_GUARD,
    /**
     * PutItem with {@code attribute_not_exists(PK)}: the first write of a deterministic id wins and
     * every repeat is a counted no-op (e.g. break rows). Within one flush the first write per item
     * wins.
     */
    CREATE_ONCE
}
