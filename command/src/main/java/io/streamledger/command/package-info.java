/** HTTP admission service (orders, fills, ledger), idempotency repair worker, outbox relay. */
package io.streamledger.command;
