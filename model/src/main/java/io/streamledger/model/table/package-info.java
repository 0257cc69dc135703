/** Table and index definitions of every bounded-context table, and shared attribute names. */
package io.streamledger.model.table;
