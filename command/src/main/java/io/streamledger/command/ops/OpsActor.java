package io.streamledger.command.ops;

import io.streamledger.command.auth.ApiKeyAuthenticator;

/**
 * Who performs an ops action, as the audit item records it: the role and the key id (first 12 hex
 * digits of the API key's hash, never the key), or {@code cli} and the operator's name for the
 * direct-to-table CLIs.
 */
public record OpsActor(String role, String keyId) {

    public OpsActor {
        if (role == null || role.isBlank() || keyId == null || keyId.isBlank()) {
            throw new IllegalArgumentException("an actor needs a role and a key id");
        }
    }

    /** The authenticated caller of an HTTP request. */
    public static OpsActor of(ApiKeyAuthenticator.Principal p) {
        String actor = p.actor();
        return new OpsActor(p.role().label(), actor.substring(actor.indexOf(':') + 1));
    }

    /** A free-form actor name: {@code role:id} splits at the first colon, else role {@code cli}. */
    public static OpsActor named(String actor) {
        if (actor == null || actor.isBlank()) {
            throw new IllegalArgumentException("a resolver identity is required");
        }
        int c = actor.indexOf(':');
        return c > 0 && c < actor.length() - 1
                ? new OpsActor(actor.substring(0, c), actor.substring(c + 1))
                : new OpsActor("cli", actor);
    }

    /** {@code role:keyId}, the form the entries' history and responses show. */
    public String label() {
        return role + ":" + keyId;
    }
}
