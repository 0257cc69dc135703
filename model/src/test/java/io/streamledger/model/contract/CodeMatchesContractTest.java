package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.KeyPaths;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The code's key paths ({@link KeyPaths#declared()}, which {@code TablesTest} ties to the table
 * specs) agree with the bundled contract's INDEX rows IDX01–IDX19, and a contract that drifts from
 * the code is caught.
 */
class CodeMatchesContractTest {

    @Test
    void bundledContractAgreesWithTheCodesKeyPaths() {
        assertThat(ContractVerifier.crossCheck(ContractResources.contract(), KeyPaths.declared()))
                .isEmpty();
    }

    @Test
    void theIdx06WriteShardingShapeExtendsItsContractRow() {
        assertThat(
                        ContractVerifier.crossCheckFallbacks(
                                ContractResources.contract(), KeyPaths.fallbacks()))
                .isEmpty();
        DeclaredIndex drifted =
                new DeclaredIndex(
                        "IDX06",
                        "GSI2",
                        "Execution",
                        "TEN#t#SYMBOL#symbol#SHARD#h(eventId)%N",
                        "TRADE#at#id",
                        List.of("AP06"));
        assertThat(
                        ContractVerifier.crossCheckFallbacks(
                                ContractResources.contract(), List.of(drifted)))
                .extracting(Violation::detail)
                .anyMatch(d -> d.contains("does not extend"));
    }

    @Test
    void aContractWhoseIndexRowDriftsFromTheCodeIsCaught() {
        String text = ContractResources.modelText();
        String drifted =
                text.lines()
                        .map(
                                l ->
                                        l.startsWith("INDEX|IDX12|")
                                                ? l.replace("%7|SOURCE#key", "%8|SOURCE#key")
                                                : l)
                        .collect(Collectors.joining("\n"));
        assertThat(drifted).isNotEqualTo(text);

        List<Violation> violations =
                ContractVerifier.crossCheck(ContractParser.parse(drifted), KeyPaths.declared());

        assertThat(violations).extracting(Violation::subject).anyMatch(s -> s.contains("IDX12"));
    }
}
