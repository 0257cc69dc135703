package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.api.StrictJson;
import io.streamledger.model.deadletter.ParkedGapStatus;
import java.util.Set;

/**
 * The {@code /v1/ops/parked-gaps} routes (CS07), under the ops roles like the dead letters (the
 * {@link HttpApi} before-handler authenticates and checks role and tenant): list, show, and the
 * audited skip request; and the one JSON shape of a record, which the CLI prints too.
 */
public final class ParkedGapRoutes {

    private final ParkedGapRepository repo;

    public ParkedGapRoutes(ParkedGapRepository repo) {
        this.repo = repo;
    }

    public void register(Javalin app) {
        app.get(
                "/v1/ops/parked-gaps",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("job", "status", "limit", "cursor", "tenant"));
                    String job = ctx.queryParam("job");
                    if (job == null || job.isEmpty()) {
                        throw ApiException.badRequest(
                                "MISSING_PARAMETER", "query parameter 'job' is required");
                    }
                    Fields.checkId("query parameter 'job'", job);
                    ParkedGapStatus status =
                            HttpApi.enumParam(ctx, "status", ParkedGapStatus.class);
                    Integer limit = HttpApi.limit(ctx);
                    if (limit != null && (limit < 1 || limit > ParkedGapRepository.MAX_PAGE)) {
                        throw ApiException.badRequest(
                                "INVALID_FIELD",
                                "limit must be in [1, " + ParkedGapRepository.MAX_PAGE + "]");
                    }
                    HttpApi.writeRead(
                            ctx,
                            page(
                                    repo.list(
                                            HttpApi.tenant(ctx),
                                            job,
                                            status,
                                            limit,
                                            ctx.queryParam("cursor"))));
                });
        app.get(
                "/v1/ops/parked-gaps/{id}",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    HttpApi.writeRead(
                            ctx,
                            entry(
                                    badRequestOnBadRef(
                                                    () ->
                                                            repo.show(
                                                                    HttpApi.tenant(ctx),
                                                                    ctx.pathParam("id")))
                                            .orElseThrow(
                                                    () ->
                                                            ApiException.notFound(
                                                                    "no parked gap "
                                                                            + ctx.pathParam(
                                                                                    "id")))));
                });
        app.post(
                "/v1/ops/parked-gaps/{id}/skip",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    Fields f = Fields.of(HttpApi.body(ctx));
                    String reason = f.optionalText("reason", ParkedGapRepository.MAX_REASON);
                    if (reason == null || reason.isBlank()) {
                        throw ApiException.badRequest(
                                "MISSING_FIELD", "required field 'reason' is missing");
                    }
                    Long expected = f.optionalLong("expectedVersion");
                    f.rejectUnknown();
                    writeChange(
                            ctx,
                            badRequestOnBadRef(
                                    () ->
                                            repo.requestSkip(
                                                    HttpApi.tenant(ctx),
                                                    ctx.pathParam("id"),
                                                    expected,
                                                    HttpApi.actor(ctx),
                                                    reason)));
                });
    }

    private static <T> T badRequestOnBadRef(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("INVALID_FIELD", e.getMessage());
        }
    }

    /** 200 with the record after the request; 404; 409 naming its current status and version. */
    private static void writeChange(Context ctx, ParkedGapRepository.Result r) throws Exception {
        switch (r.outcome()) {
            case DONE -> HttpApi.writeRead(ctx, entry(r.current()));
            case NOT_FOUND -> throw ApiException.notFound("no parked gap " + ctx.pathParam("id"));
            case CONFLICT ->
                    throw ApiException.conflict(
                            "STALE_VERSION",
                            "parked gap is "
                                    + r.current().status()
                                    + " at version "
                                    + r.current().version()
                                    + "; only an OPEN gap at the expected version can be skipped");
        }
    }

    /** The one JSON shape of a parked-gap record. */
    public static ObjectNode entry(ParkedGapItems.View v) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("id", v.ref());
        o.put("tenant", v.tenant());
        o.put("job", v.job());
        o.put("operator", v.operator());
        o.put("aggregateKey", v.sourceKey());
        o.put("missingVersion", v.missingVersion());
        o.put("status", v.status().name());
        o.put("version", v.version());
        o.put("parkedCount", v.parkedCount());
        ArrayNode parked = o.putArray("parkedVersions");
        v.parkedVersions().forEach(parked::add);
        o.put("firstParkedAt", v.firstParkedAt().toString());
        o.put("slaDeadline", v.slaDeadline().toString());
        o.put("overdue", v.overdue());
        o.put("skipRequestedBy", v.skipRequestedBy());
        o.put("skipReason", v.skipReason());
        o.put("closedAt", v.closedAt() == null ? null : v.closedAt().toString());
        o.put("closedBy", v.closedBy());
        ArrayNode h = o.putArray("history");
        for (ParkedGapItems.Change c : v.history()) {
            ObjectNode e = h.addObject();
            e.put("at", c.at().toString());
            e.put("actor", c.actor());
            e.put("action", c.action());
            e.put("toStatus", c.toStatus().name());
            e.put("note", c.note());
        }
        return o;
    }

    /** A listing page: records and the cursor of the next page (null on the last). */
    public static ObjectNode page(ParkedGapRepository.Page p) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        ArrayNode items = o.putArray("items");
        p.items().forEach(v -> items.add(entry(v)));
        o.put("cursor", p.cursor());
        return o;
    }
}
