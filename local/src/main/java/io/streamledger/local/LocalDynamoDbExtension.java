package io.streamledger.local;

import java.net.URI;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension (the ITCase stack of CS01–CS09): one {@link LocalEndpoint} per test class on a
 * random loopback port, resolving {@link LocalEndpoint} and {@link URI} parameters. Use
 * {@code @ExtendWith} or, to configure it, {@code @RegisterExtension static LocalDynamoDbExtension
 * dynamo = new LocalDynamoDbExtension(b -> b.ttlSweepInterval(null));}.
 */
public final class LocalDynamoDbExtension
        implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NS =
            ExtensionContext.Namespace.create(LocalDynamoDbExtension.class);
    private static final String KEY = "endpoint";

    private final UnaryOperator<LocalEndpoint.Builder> customizer;
    private LocalEndpoint endpoint;

    public LocalDynamoDbExtension() {
        this(UnaryOperator.identity());
    }

    public LocalDynamoDbExtension(UnaryOperator<LocalEndpoint.Builder> customizer) {
        this.customizer = customizer;
    }

    /** The running endpoint (after beforeAll). */
    public LocalEndpoint endpoint() {
        if (endpoint == null) {
            throw new IllegalStateException("the local endpoint is not started yet");
        }
        return endpoint;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        endpoint = customizer.apply(LocalEndpoint.builder().port(0)).build().start();
        context.getStore(NS).put(KEY, endpoint);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        LocalEndpoint e = context.getStore(NS).remove(KEY, LocalEndpoint.class);
        if (e != null) {
            e.close();
        }
        endpoint = null;
    }

    @Override
    public boolean supportsParameter(ParameterContext pc, ExtensionContext ec) {
        Class<?> type = pc.getParameter().getType();
        return type == LocalEndpoint.class || type == URI.class;
    }

    @Override
    public Object resolveParameter(ParameterContext pc, ExtensionContext ec) {
        LocalEndpoint e = ec.getStore(NS).get(KEY, LocalEndpoint.class);
        if (e == null) {
            e = endpoint;
        }
        if (e == null) {
            throw new ParameterResolutionException("the local endpoint is not running");
        }
        return pc.getParameter().getType() == URI.class ? e.endpoint() : e;
    }
}
