/** Reading and checking DynamoDB table exports against their manifests (CS09). */
package io.streamledger.savepoints.export;
