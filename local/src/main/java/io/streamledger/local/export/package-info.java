/**
 * Table export for the local endpoint: ExportTableToPointInTime / DescribeExport / ListExports
 * writing DynamoDB's S3 export layout to a local folder, as a consistent snapshot tagged with the
 * stream position it corresponds to (seed CS09: rebuild from export, then catch up from Streams).
 */
package io.streamledger.local.export;
