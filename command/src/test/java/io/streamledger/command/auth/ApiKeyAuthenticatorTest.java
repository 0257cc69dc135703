package io.streamledger.command.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys are stored hashed; the tenant comes from the key. */
class ApiKeyAuthenticatorTest {

    @Test
    void fileHoldsOnlyHashesAndMapsKeysToTenants(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("keys");
        Files.writeString(
                f,
                "# tenants\nacme "
                        + ApiKeyAuthenticator.sha256Hex("s3cret")
                        + "\n\nglobex "
                        + ApiKeyAuthenticator.sha256Hex("other")
                        + "\n");
        ApiKeyAuthenticator a = ApiKeyAuthenticator.fromFile(f);
        assertThat(a.tenantFor("s3cret")).contains("acme");
        assertThat(a.tenantFor("other")).contains("globex");
        assertThat(a.tenantFor("S3CRET")).isEmpty();
        assertThat(a.tenantFor(null)).isEmpty();
        assertThat(a.tenantFor("")).isEmpty();
        assertThat(a.tenants()).containsExactly("acme", "globex");
        assertThat(Files.readString(f)).doesNotContain("s3cret");
    }

    @Test
    void malformedLinesAreRejectedWithTheirLineNumber(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("keys");
        Files.writeString(f, "acme plaintext-key\n");
        assertThatThrownBy(() -> ApiKeyAuthenticator.fromFile(f)).hasMessageContaining(":1:");
    }

    @Test
    void aThirdColumnGivesTheKeyItsRoleAndTraderIsTheDefault(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("keys");
        Files.writeString(
                f,
                "acme "
                        + ApiKeyAuthenticator.sha256Hex("trade")
                        + "\nacme "
                        + ApiKeyAuthenticator.sha256Hex("ops")
                        + " finance-ops\nacme "
                        + ApiKeyAuthenticator.sha256Hex("audit")
                        + " auditor\n");
        ApiKeyAuthenticator a = ApiKeyAuthenticator.fromFile(f);
        assertThat(a.principalFor("trade").orElseThrow().role())
                .isEqualTo(ApiKeyAuthenticator.Role.TRADER);
        ApiKeyAuthenticator.Principal ops = a.principalFor("ops").orElseThrow();
        assertThat(ops.role()).isEqualTo(ApiKeyAuthenticator.Role.FINANCE_OPS);
        assertThat(ops.actor())
                .isEqualTo("finance-ops:" + ApiKeyAuthenticator.sha256Hex("ops").substring(0, 12));
        assertThat(a.principalFor("audit").orElseThrow().role().mayActOnOps()).isFalse();
        assertThat(a.principalFor("audit").orElseThrow().role().mayReadOps()).isTrue();
    }

    @Test
    void anUnknownRoleIsRejectedWithItsLineNumber(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("keys");
        Files.writeString(f, "acme " + ApiKeyAuthenticator.sha256Hex("k") + " admin\n");
        assertThatThrownBy(() -> ApiKeyAuthenticator.fromFile(f))
                .hasMessageContaining(":1:")
                .hasMessageContaining("unknown role 'admin'");
    }
}
