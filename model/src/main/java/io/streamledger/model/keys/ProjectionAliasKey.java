package io.streamledger.model.keys;

import java.util.List;

/**
 * The alias item that names the live namespace of a projection (CS09 cutover, AP07): it lives in
 * the Projection table as {@code ALIAS#name / ALIAS}, e.g. {@code ALIAS#portfolio / ALIAS}, and
 * carries the active {@code Portfolio_vN} version; flipping it is the atomic cutover.
 *
 * @param name projection name, e.g. {@code portfolio}
 */
public record ProjectionAliasKey(String name) implements ItemKey {
    /** The Portfolio projection's alias. */
    public static final ProjectionAliasKey PORTFOLIO = new ProjectionAliasKey("portfolio");

    public ProjectionAliasKey {
        KeyComponents.require("name", name);
    }

    public static ProjectionAliasKey parse(String pk, String sk) {
        KeyPaths.ALIAS_SK.match(sk);
        List<String> p = KeyPaths.ALIAS_PK.match(pk);
        return new ProjectionAliasKey(p.get(0));
    }

    /** Not a seed IDX path: an operational item of the Projection table (CS09). */
    @Override
    public String indexId() {
        return "ALIAS";
    }

    @Override
    public String pk() {
        return KeyPaths.ALIAS_PK.build(name);
    }

    @Override
    public String sk() {
        return KeyPaths.ALIAS_SK.build();
    }
}
