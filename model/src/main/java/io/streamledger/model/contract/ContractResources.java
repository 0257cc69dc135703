package io.streamledger.model.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Loads the bundled verbatim copies of the seed's TASK6_MODEL block and capacity render table. */
public final class ContractResources {
    /** Classpath location of the TASK6_MODEL block copy. */
    public static final String MODEL_RESOURCE = "/contract/task6-model.txt";

    /** Classpath location of the capacity render table copy. */
    public static final String RENDER_RESOURCE = "/contract/capacity-render.md";

    private ContractResources() {}

    public static String modelText() {
        return read(MODEL_RESOURCE);
    }

    public static String renderText() {
        return read(RENDER_RESOURCE);
    }

    public static Contract contract() {
        return ContractParser.parse(modelText());
    }

    public static RenderTable renderTable() {
        return RenderTable.parse(renderText());
    }

    private static String read(String resource) {
        try (InputStream in = ContractResources.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource missing from classpath: " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
