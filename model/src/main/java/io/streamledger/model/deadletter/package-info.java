/** The durable dead-letter entry's vocabulary (seed CS08): reasons, statuses, the id formula. */
package io.streamledger.model.deadletter;
