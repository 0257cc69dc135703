/** State Processor API bootstrap and inspect, export reader, state-compatibility fixtures. */
package io.streamledger.savepoints;
