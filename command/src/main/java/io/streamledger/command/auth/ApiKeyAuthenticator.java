package io.streamledger.command.auth;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Maps an API key to its tenant and role: keys are configured only as SHA-256 hashes and compared
 * in constant time; the tenant and role of a request come from here, never from its body.
 */
public final class ApiKeyAuthenticator {

    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

    private record Entry(String tenant, byte[] keyHash, Role role) {}

    /** What a key may do; every key is scoped to its one tenant. */
    public enum Role {
        /** Today's order, fill, ledger and read routes. */
        TRADER("trader"),
        /** Ops routes, read and act (breaks, dead letters). */
        FINANCE_OPS("finance-ops"),
        /** Ops routes, read and act (orders' failure path, dead letters). */
        ORDERS_OPS("orders-ops"),
        /** Ops routes, read only. */
        AUDITOR("auditor");

        private final String label;

        Role(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** Whether this role may change ops state (auditors only read). */
        public boolean mayActOnOps() {
            return this == FINANCE_OPS || this == ORDERS_OPS;
        }

        public boolean mayReadOps() {
            return this != TRADER;
        }

        public static Role of(String label) {
            for (Role r : values()) {
                if (r.label.equals(label)) {
                    return r;
                }
            }
            throw new IllegalArgumentException(
                    "unknown role '"
                            + label
                            + "'; known: trader, finance-ops, orders-ops, auditor");
        }
    }

    /**
     * The authenticated caller.
     *
     * @param actor who acted, for audit entries: role and the first 12 hex digits of the key hash
     */
    public record Principal(String tenant, Role role, String actor) {}

    private final List<Entry> entries;

    private ApiKeyAuthenticator(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads a keys file: one {@code <tenant> <sha256-hex-of-key> [role]} per line (role defaults to
     * {@code trader}), {@code #} comments.
     */
    public static ApiKeyAuthenticator fromFile(Path file) throws java.io.IOException {
        List<Entry> out = new ArrayList<>();
        int lineNo = 0;
        for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length < 2
                    || parts.length > 3
                    || !TENANT.matcher(parts[0]).matches()
                    || !HEX64.matcher(parts[1]).matches()) {
                throw new IllegalArgumentException(
                        file
                                + ":"
                                + lineNo
                                + ": expected '<tenant> <sha256 hex of the key> [role]' (tenant"
                                + " [A-Za-z0-9_.-]{1,64}, hash 64 lower-case hex digits)");
            }
            Role role;
            try {
                role = parts.length == 3 ? Role.of(parts[2]) : Role.TRADER;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": " + e.getMessage());
            }
            out.add(new Entry(parts[0], HexFormat.of().parseHex(parts[1]), role));
        }
        return new ApiKeyAuthenticator(out);
    }

    /** Builder for tests and embedding: hashes the given plaintext keys immediately. */
    public static final class Builder {
        private final List<Entry> entries = new ArrayList<>();

        public Builder key(String tenant, String plaintextKey) {
            return key(tenant, plaintextKey, Role.TRADER);
        }

        public Builder key(String tenant, String plaintextKey, Role role) {
            if (!TENANT.matcher(tenant).matches()) {
                throw new IllegalArgumentException("bad tenant id: " + tenant);
            }
            entries.add(new Entry(tenant, sha256(plaintextKey), role));
            return this;
        }

        public ApiKeyAuthenticator build() {
            return new ApiKeyAuthenticator(entries);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The tenant owning this key, or empty; compares against every entry to avoid timing leaks. */
    public Optional<String> tenantFor(String presentedKey) {
        return principalFor(presentedKey).map(Principal::tenant);
    }

    /** The tenant and role of this key, or empty; compares against every entry. */
    public Optional<Principal> principalFor(String presentedKey) {
        if (presentedKey == null || presentedKey.isEmpty() || presentedKey.length() > 512) {
            return Optional.empty();
        }
        byte[] h = sha256(presentedKey);
        Entry found = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(h, e.keyHash) && found == null) {
                found = e;
            }
        }
        return Optional.ofNullable(found)
                .map(
                        e ->
                                new Principal(
                                        e.tenant,
                                        e.role,
                                        e.role.label()
                                                + ":"
                                                + HexFormat.of()
                                                        .formatHex(e.keyHash)
                                                        .substring(0, 12)));
    }

    /** Every configured tenant (the repair worker visits each tenant's IDX19 shards). */
    public java.util.Set<String> tenants() {
        java.util.Set<String> t = new java.util.TreeSet<>();
        entries.forEach(e -> t.add(e.tenant));
        return t;
    }

    public static String sha256Hex(String key) {
        return HexFormat.of().formatHex(sha256(key));
    }

    static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
