package io.streamledger.local.kinesis;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that runs one {@link KinesisLocal} per test class: use
 * {@code @RegisterExtension static final KinesisLocalExtension KINESIS = new
 * KinesisLocalExtension();} and {@code KINESIS.kinesis()}, or take a {@link KinesisLocal}
 * test/constructor parameter (the Kinesis stack of the CS06/CS07 tests).
 */
public final class KinesisLocalExtension
        implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private KinesisLocal kinesis;

    @Override
    public void beforeAll(ExtensionContext context) {
        kinesis = KinesisLocal.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (kinesis != null) {
            kinesis.close();
            kinesis = null;
        }
    }

    /** The running instance; only valid between beforeAll and afterAll. */
    public KinesisLocal kinesis() {
        if (kinesis == null) {
            throw new IllegalStateException("kinesis-local is not running (static field?)");
        }
        return kinesis;
    }

    /**
     * Kinesis-destination options whose client is made at first use, so an endpoint built before
     * this extension has started kinesis-local can still forward to it.
     */
    public KinesisDestinationOptions destinationOptions() {
        return KinesisDestinationOptions.builder()
                .kinesisClient(() -> KinesisLocal.newClient(kinesis().endpoint()))
                .build();
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return p.getParameter().getType() == KinesisLocal.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        return kinesis();
    }
}
