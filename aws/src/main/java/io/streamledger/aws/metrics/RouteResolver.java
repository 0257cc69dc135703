package io.streamledger.aws.metrics;

import io.streamledger.model.contract.Contract;
import io.streamledger.model.contract.LaneRow;
import io.streamledger.model.contract.LaneState;
import io.streamledger.model.contract.MapRow;
import io.streamledger.model.table.GsiSpec;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.annotation.Nullable;

/**
 * Names a call's route by the seed's vocabulary: physical table (any prefix, {@code _vN} namespace
 * suffix) to its {@code model} table spec, index to its IDX id, and a base-table call to the IDX id
 * the contract's MAP row gives its AP (e.g. AP17 on Orders is IDX18, AP01 is IDX01).
 */
final class RouteResolver {
    private static final Pattern VERSION_SUFFIX = Pattern.compile("_v\\d+$");

    private final Map<String, List<String>> indexesByAp;
    private final Map<String, Optional<TableSpec>> specs = new ConcurrentHashMap<>();

    RouteResolver(Contract contract) {
        this.indexesByAp =
                contract.maps().stream()
                        .collect(
                                Collectors.toMap(
                                        MapRow::accessPattern, MapRow::indexes, (a, b) -> a));
    }

    /** APs with at least one LOAD_TEST_REQUIRED lane: the ones whose key skew is measured. */
    static Set<String> loadTestRequiredAps(Contract contract) {
        return contract.lanes().stream()
                .filter(l -> l.state() == LaneState.LOAD_TEST_REQUIRED)
                .map(LaneRow::accessPattern)
                .collect(Collectors.toUnmodifiableSet());
    }

    Route route(String ap, String table, @Nullable String index) {
        String idx = index == null ? Route.BASE : index;
        return new Route(ap, routeId(ap, table, index), table, idx);
    }

    private String routeId(String ap, String table, @Nullable String index) {
        Optional<TableSpec> spec = spec(table);
        if (spec.isEmpty()) {
            return table;
        }
        TableSpec s = spec.get();
        if (index != null) {
            return s.gsi(index).map(GsiSpec::indexId).orElse(s.logicalName() + "." + index);
        }
        List<String> base = s.baseIndexIds();
        List<String> mine = new ArrayList<>(indexesByAp.getOrDefault(ap, List.of()));
        mine.retainAll(base);
        if (mine.size() == 1) {
            return mine.get(0);
        }
        return base.size() == 1 ? base.get(0) : s.logicalName();
    }

    /** True when {@code route} is one the contract's MAP row gives {@code ap}. */
    boolean ownRoute(Route route) {
        return indexesByAp.getOrDefault(route.ap(), List.of()).contains(route.route());
    }

    /**
     * The partition key attribute of {@code table} (or its {@code index}), if the table is known.
     */
    Optional<String> partitionKey(String table, @Nullable String index) {
        return spec(table)
                .map(
                        s ->
                                index == null
                                        ? s.keySchema().partitionKey()
                                        : s.gsi(index).map(GsiSpec::pkAttr).orElse(null));
    }

    Optional<TableSpec> spec(String physical) {
        return specs.computeIfAbsent(physical, RouteResolver::lookup);
    }

    private static Optional<TableSpec> lookup(String physical) {
        String name = VERSION_SUFFIX.matcher(physical).replaceFirst("");
        TableSpec best = null;
        for (TableSpec s : Tables.all()) {
            if (name.endsWith(s.logicalName())
                    && (best == null || s.logicalName().length() > best.logicalName().length())) {
                best = s;
            }
        }
        return Optional.ofNullable(best);
    }
}
