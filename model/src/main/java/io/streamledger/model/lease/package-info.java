/** Lease timing on instances' own clocks with a stated skew tolerance (AP08, AP16, duties). */
package io.streamledger.model.lease;
