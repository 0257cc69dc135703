/**
 * DynamoDB access shared by every module that talks to DynamoDB: error classification, retries,
 * client configuration, item codecs for shared item shapes and conditional updates.
 */
package io.streamledger.aws;
