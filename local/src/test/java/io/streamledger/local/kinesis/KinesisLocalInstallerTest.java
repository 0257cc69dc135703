package io.streamledger.local.kinesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cache location, installed-version check and the prerequisite message, without npm. */
class KinesisLocalInstallerTest {
    @TempDir Path dir;

    @Test
    void projectRootIsTheNearestAncestorWithGit() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Files.createDirectories(repo.resolve(".git"));
        Files.writeString(repo.resolve("pom.xml"), "<project/>");
        Path module = Files.createDirectories(repo.resolve("local/src"));
        Files.writeString(repo.resolve("local/pom.xml"), "<project/>");
        assertThat(KinesisLocalInstaller.projectRoot(module)).isEqualTo(repo);
    }

    @Test
    void withoutGitTheTopMostPomWins() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("plain"));
        Files.writeString(repo.resolve("pom.xml"), "<project/>");
        Path module = Files.createDirectories(repo.resolve("local"));
        Files.writeString(module.resolve("pom.xml"), "<project/>");
        assertThat(KinesisLocalInstaller.projectRoot(module)).isEqualTo(repo);
    }

    @Test
    void onlyThePinnedVersionCountsAsInstalled() throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("node_modules/kinesis-local"));
        assertThat(KinesisLocalInstaller.isInstalled(pkg)).isFalse();
        Files.writeString(pkg.resolve("main.js"), "");
        Files.writeString(
                pkg.resolve("package.json"), "{\"name\":\"kinesis-local\",\"version\":\"0.6.1\"}");
        assertThat(KinesisLocalInstaller.isInstalled(pkg)).isFalse();
        Files.writeString(
                pkg.resolve("package.json"), "{\"name\":\"kinesis-local\",\"version\": \"0.6.2\"}");
        assertThat(KinesisLocalInstaller.isInstalled(pkg)).isTrue();
    }

    @Test
    void missingNodeSaysExactlyWhatToInstall() {
        assertThatThrownBy(() -> KinesisLocalInstaller.nodeMajorVersion("node-not-installed-here"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Node.js 18+ and npm");
    }
}
