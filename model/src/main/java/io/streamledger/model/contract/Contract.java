package io.streamledger.model.contract;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parsed TASK6_MODEL block (seed "Machine-readable AP, path, and amplification contract"): AP,
 * INDEX, MAP, LANE and AMP rows in file order. Duplicate ids are kept so the verifier can report
 * them.
 */
public record Contract(
        List<AccessPatternRow> accessPatterns,
        List<IndexRow> indexes,
        List<MapRow> maps,
        List<LaneRow> lanes,
        List<AmplificationRow> amplifications) {
    public Contract {
        accessPatterns = List.copyOf(accessPatterns);
        indexes = List.copyOf(indexes);
        maps = List.copyOf(maps);
        lanes = List.copyOf(lanes);
        amplifications = List.copyOf(amplifications);
    }

    /** The first AP row with this id. */
    public Optional<AccessPatternRow> accessPattern(String id) {
        return accessPatterns.stream().filter(a -> a.id().equals(id)).findFirst();
    }

    /** The first INDEX row with this id. */
    public Optional<IndexRow> index(String id) {
        return indexes.stream().filter(i -> i.id().equals(id)).findFirst();
    }

    /** The first AMP row with this id. */
    public Optional<AmplificationRow> amplification(String id) {
        return amplifications.stream().filter(a -> a.id().equals(id)).findFirst();
    }

    /** AP rows by id (first occurrence wins), in file order. */
    public Map<String, AccessPatternRow> accessPatternsById() {
        Map<String, AccessPatternRow> byId = new LinkedHashMap<>();
        accessPatterns.forEach(a -> byId.putIfAbsent(a.id(), a));
        return byId;
    }
}
