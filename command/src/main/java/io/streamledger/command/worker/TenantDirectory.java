package io.streamledger.command.worker;

import java.util.Collection;

/**
 * The tenants the service's background duties visit (AP18 repair, DAY/GTD expiry, AP15 escalation):
 * one seam, so where tenants are listed (today the API keys file) changes in one place.
 */
@FunctionalInterface
public interface TenantDirectory {
    /** Every tenant, each once. */
    Collection<String> tenants();
}
