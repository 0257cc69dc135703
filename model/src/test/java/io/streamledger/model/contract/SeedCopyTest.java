package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bundled resources are verbatim copies of the seed's TASK6_MODEL block and capacity render
 * table; runs when the seed is present at {@code ../shared/seed} of the project root (or an
 * ancestor's {@code shared/seed}, as in a worktree), skips otherwise.
 */
class SeedCopyTest {
    private static final Path SEED_IN_SHARED = Path.of("shared", "seed", "dynamodb-deep-dive.md");

    @Test
    void modelResourceEqualsSeedBlock() throws IOException {
        String seed = seedText();
        assertThat(lines(ContractResources.modelText()))
                .containsExactlyElementsOf(SeedSections.modelLines(seed));
    }

    @Test
    void renderResourceEqualsSeedTable() throws IOException {
        String seed = seedText();
        assertThat(lines(ContractResources.renderText()))
                .containsExactlyElementsOf(SeedSections.renderLines(seed));
    }

    private static List<String> lines(String resource) {
        // the resource ends with one newline; the seed section has no trailing empty line
        return List.of(resource.stripTrailing().split("\n", -1));
    }

    private static String seedText() throws IOException {
        Optional<Path> seed = locateSeed();
        assumeTrue(
                seed.isPresent(),
                "seed not found at ../shared/seed/dynamodb-deep-dive.md relative to the project"
                        + " root (or an ancestor's shared/seed); copy check skipped");
        return Files.readString(seed.get(), StandardCharsets.UTF_8);
    }

    /** Project root = the directory holding model/; then ../shared, then further ancestors. */
    static Optional<Path> locateSeed() {
        Path dir = Path.of("").toAbsolutePath();
        if (!Files.isDirectory(dir.resolve("model")) && dir.getParent() != null) {
            dir = dir.getParent(); // surefire runs in model/
        }
        for (Path p = dir.getParent(); p != null; p = p.getParent()) {
            Path candidate = p.resolve(SEED_IN_SHARED);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
