/** Bulk reconciliation of a window from table exports (AP14/AP15, seed "PITR export"). */
package io.streamledger.savepoints.recon;
