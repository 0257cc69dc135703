/** Attribute names of the projection's rows: Portfolio view (AP07) and checkpoints (AP13). */
package io.streamledger.model.projection;
