package io.streamledger.savepoints.export;

import static io.streamledger.savepoints.testing.ExportFixture.authority;
import static io.streamledger.savepoints.testing.ExportFixture.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.savepoints.testing.ExportFixture;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CS09 step 3: an export is read only when it matches its manifest, and fails loudly otherwise. */
class ExportReaderTest {

    @TempDir Path tmp;

    private Path twoFileExport() throws Exception {
        return new ExportFixture()
                .file(
                        List.of(
                                authority(AuthorityKey.cash("t1", "a1", "USD"), 3, "100.25", "10"),
                                posting("t1", "a1", "1")))
                .file(List.of(authority(AuthorityKey.security("t1", "a1", "AAPL"), 7, "12", "0")))
                .write(tmp);
    }

    @Test
    void readsEveryItemOfAValidExport() throws Exception {
        ExportManifest m = ExportReader.open(twoFileExport());
        assertThat(m.itemCount()).isEqualTo(3);
        assertThat(m.files()).hasSize(2);
        assertThat(m.tableName()).isEqualTo("Ledger");
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        assertThat(ExportReader.verifyAll(m, items::add)).isEqualTo(3);
        assertThat(items.get(0).get("posted")).isEqualTo(new AttributeValue.N("100.25"));
    }

    @Test
    void missingDataFileIsNamed() throws Exception {
        Path dir = twoFileExport();
        Files.delete(dir.resolve("data/file001.json.gz"));
        assertThatThrownBy(() -> ExportReader.open(dir))
                .isInstanceOf(ExportIntegrityException.class)
                .hasMessageContaining("data file missing")
                .hasMessageContaining("data/file001.json.gz");
    }

    @Test
    void corruptedFileFailsTheMd5Check() throws Exception {
        Path dir = twoFileExport();
        Path f = dir.resolve("data/file000.json.gz");
        byte[] bytes = Files.readAllBytes(f);
        bytes[bytes.length / 2] ^= 0x5A;
        Files.write(f, bytes);
        assertThatThrownBy(() -> ExportReader.open(dir))
                .isInstanceOf(ExportIntegrityException.class)
                .hasMessageContaining("MD5 mismatch for exports/AWSDynamoDB/")
                .hasMessageContaining("file000.json.gz");
    }

    @Test
    void totalThatDisagreesWithTheFileListIsRejected() throws Exception {
        Path dir = twoFileExport();
        Path s = dir.resolve("manifest-summary.json");
        Files.writeString(s, Files.readString(s).replace("\"itemCount\":3", "\"itemCount\":4"));
        assertThatThrownBy(() -> ExportReader.open(dir))
                .isInstanceOf(ExportIntegrityException.class)
                .hasMessage(
                        "item count mismatch: manifest-summary.json says itemCount=4 but the 2 files"
                                + " in manifest-files.json add up to 3");
    }

    @Test
    void fileHoldingFewerItemsThanItsManifestLineFailsOnRead() throws Exception {
        Path dir = twoFileExport();
        // rewrite file001 with no items, without an MD5 so only the line count can catch it
        Path f = dir.resolve("data/file001.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
            out.write(new byte[0]);
        }
        Path mf = dir.resolve("manifest-files.json");
        List<String> lines = new ArrayList<>(Files.readAllLines(mf));
        lines.set(1, lines.get(1).replaceAll("\"md5Checksum\":\"[^\"]*\",", ""));
        Files.write(mf, lines, StandardCharsets.UTF_8);

        ExportManifest m = ExportReader.open(dir);
        assertThatThrownBy(() -> ExportReader.verifyAll(m, item -> {}))
                .isInstanceOf(ExportIntegrityException.class)
                .hasMessageContaining("item count mismatch in exports/AWSDynamoDB/")
                .hasMessageContaining("says itemCount=1 but the file holds 0 items");
    }

    @Test
    void malformedLineNamesFileAndLine() throws Exception {
        Path dir = twoFileExport();
        Path f = dir.resolve("data/file001.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
            out.write(
                    "{\"Item\":{\"PK\":{\"N\":\"1.0e999999999\"}}}\n"
                            .getBytes(StandardCharsets.UTF_8));
        }
        Path mf = dir.resolve("manifest-files.json");
        List<String> lines = new ArrayList<>(Files.readAllLines(mf));
        lines.set(1, lines.get(1).replaceAll("\"md5Checksum\":\"[^\"]*\",", ""));
        Files.write(mf, lines, StandardCharsets.UTF_8);

        ExportManifest m = ExportReader.open(dir);
        assertThatThrownBy(() -> ExportReader.verifyAll(m, item -> {}))
                .isInstanceOf(ExportIntegrityException.class)
                .hasMessageContaining("file001.json.gz line 1: malformed item");
    }

    @Test
    void notAnExportDirectory() {
        assertThatThrownBy(() -> ExportReader.open(tmp))
                .isInstanceOf(ExportIntegrityException.class)
                .hasMessageContaining("not an export directory")
                .hasMessageContaining("manifest-summary.json is missing");
    }

    @Test
    void keyOutsideTheExportIsRejected() {
        assertThatThrownBy(() -> ExportReader.localPath(tmp, "x/data/../../etc/passwd"))
                .isInstanceOf(ExportIntegrityException.class)
                .hasMessageContaining("outside the export directory");
    }
}
