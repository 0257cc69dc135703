/** The seed's shard-hash contract (AP09, AP13, AP16) and versioned shard maps. */
package io.streamledger.model.shard;
