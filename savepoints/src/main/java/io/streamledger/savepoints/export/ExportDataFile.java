package io.streamledger.savepoints.export;

import java.io.Serializable;
import java.nio.file.Path;
import javax.annotation.Nullable;

/**
 * One line of an export's {@code manifest-files.json} resolved to a local file (CS09).
 *
 * @param s3Key {@code dataFileS3Key} as the manifest names it
 * @param itemCount items the manifest promises for this file
 * @param md5Base64 {@code md5Checksum} of the compressed file, if the manifest has one
 * @param path the local file
 */
public record ExportDataFile(String s3Key, long itemCount, @Nullable String md5Base64, String path)
        implements Serializable {

    public Path file() {
        return Path.of(path);
    }
}
