package io.streamledger.savepoints.export;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * What an export's manifests promise (CS09): source table, export time, total item count and the
 * data files with their counts; checked by {@link ExportReader} before anything reads a row.
 *
 * @param directory the export directory ({@code .../AWSDynamoDB/<exportId>})
 * @param exportArn export ARN
 * @param tableArn exported table
 * @param exportTime the point in time of the snapshot; catch-up must start at or before it
 * @param itemCount total items promised by manifest-summary.json
 * @param files data files from manifest-files.json
 * @param localStreamShardPositions the local endpoint's extension: last stream sequence number per
 *     shard at the snapshot (empty on AWS exports)
 */
public record ExportManifest(
        String directory,
        String exportArn,
        String tableArn,
        @Nullable Instant exportTime,
        long itemCount,
        List<ExportDataFile> files,
        Map<String, String> localStreamShardPositions)
        implements Serializable {

    public ExportManifest {
        files = List.copyOf(files);
        localStreamShardPositions = Map.copyOf(localStreamShardPositions);
    }

    /** The table name at the end of {@link #tableArn()}. */
    public String tableName() {
        int i = tableArn.indexOf(":table/");
        return i < 0 ? tableArn : tableArn.substring(i + ":table/".length());
    }
}
