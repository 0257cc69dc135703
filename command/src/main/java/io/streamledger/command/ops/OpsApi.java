package io.streamledger.command.ops;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.streamledger.aws.items.BreakStatus;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.idempotency.IdempotencyStore;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Set;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The finance/orders-ops routes beside the dead letters: AP15 breaks ({@code /v1/ops/breaks}), AP14
 * batches ({@code /v1/ops/recon/batches}), the AP18 repair queue ({@code /v1/ops/repairs}) and the
 * CS07 parked gaps ({@code /v1/ops/parked-gaps}, {@link ParkedGapRoutes}) and the ops audit ({@code
 * /v1/ops/audit}, {@link AuditQueries}); authentication, role and tenant checks are the {@link
 * HttpApi} before-handler's.
 */
public final class OpsApi {

    private final @Nullable BreakService breaks;
    private final @Nullable BatchQueries batches;
    private final @Nullable RepairQueue repairs;
    private final @Nullable ParkedGapRoutes parkedGaps;
    private final @Nullable AuditQueries audit;

    public OpsApi(
            @Nullable BreakService breaks,
            @Nullable BatchQueries batches,
            @Nullable RepairQueue repairs) {
        this(breaks, batches, repairs, null);
    }

    public OpsApi(
            @Nullable BreakService breaks,
            @Nullable BatchQueries batches,
            @Nullable RepairQueue repairs,
            @Nullable ParkedGapRoutes parkedGaps) {
        this(breaks, batches, repairs, parkedGaps, null);
    }

    public OpsApi(
            @Nullable BreakService breaks,
            @Nullable BatchQueries batches,
            @Nullable RepairQueue repairs,
            @Nullable ParkedGapRoutes parkedGaps,
            @Nullable AuditQueries audit) {
        this.breaks = breaks;
        this.batches = batches;
        this.repairs = repairs;
        this.parkedGaps = parkedGaps;
        this.audit = audit;
    }

    /** All ops routes over one client and the tables behind {@code naming}. */
    public static OpsApi over(
            DynamoDbClient ddb, TableNaming naming, Clock clock, IdempotencyStore store) {
        String recon = naming.physicalName(Tables.RECONCILIATION);
        return new OpsApi(
                breakService(ddb, naming, clock),
                new BatchQueries(ddb, recon),
                new RepairQueue(ddb, store, recon, clock, RepairQueue.AUDIT_HORIZON),
                new ParkedGapRoutes(
                        new ParkedGapRepository(
                                ddb, naming.physicalName(Tables.DEAD_LETTER), recon, clock)),
                new AuditQueries(ddb, recon));
    }

    /** The break service over the Reconciliation and Ledger tables behind {@code naming}. */
    public static BreakService breakService(DynamoDbClient ddb, TableNaming naming, Clock clock) {
        return new BreakService(
                new BreakRepository(ddb, naming.physicalName(Tables.RECONCILIATION), clock),
                new LedgerEvidence(ddb, naming.physicalName(Tables.LEDGER)),
                clock);
    }

    public void register(Javalin app) {
        if (breaks != null) {
            breakRoutes(app, breaks);
        }
        if (batches != null) {
            batches.register(app);
        }
        if (repairs != null) {
            repairs.register(app);
        }
        if (parkedGaps != null) {
            parkedGaps.register(app);
        }
        if (audit != null) {
            audit.register(app);
        }
    }

    private static void breakRoutes(Javalin app, BreakService svc) {
        app.get(
                "/v1/ops/breaks",
                ctx -> {
                    HttpApi.onlyParams(
                            ctx, Set.of("status", "dueBefore", "limit", "cursor", "tenant"));
                    BreakStatus status = HttpApi.enumParam(ctx, "status", BreakStatus.class);
                    Integer limit = HttpApi.limit(ctx);
                    HttpApi.writeRead(
                            ctx,
                            BreakDocs.page(
                                    svc.list(
                                            HttpApi.tenant(ctx),
                                            status,
                                            instantParam(ctx, "dueBefore"),
                                            ctx.queryParam("cursor"),
                                            limit == null ? 50 : limit)));
                });
        app.get(
                "/v1/ops/breaks/{id}",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    BreakRef ref = ref(ctx);
                    HttpApi.writeRead(
                            ctx,
                            BreakDocs.entry(
                                    svc.show(HttpApi.tenant(ctx), ref)
                                            .orElseThrow(
                                                    () ->
                                                            ApiException.notFound(
                                                                    "no break " + ref.id()))));
                });
        app.post(
                "/v1/ops/breaks/{id}/assign",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    BreakRef ref = ref(ctx);
                    Fields f = Fields.of(HttpApi.body(ctx));
                    long expected = expectedVersion(f);
                    String owner = requiredText(f, "owner", 128);
                    String note = f.optionalText("note", BreakEvidence.MAX_NOTE);
                    f.rejectUnknown();
                    writeChange(
                            ctx,
                            svc.assign(
                                    HttpApi.tenant(ctx), ref, expected, owner, note, actor(ctx)));
                });
        app.post(
                "/v1/ops/breaks/{id}/escalate",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    BreakRef ref = ref(ctx);
                    Fields f = Fields.of(HttpApi.body(ctx));
                    long expected = expectedVersion(f);
                    String owner = f.optionalText("owner", 128);
                    String note = f.optionalText("note", BreakEvidence.MAX_NOTE);
                    f.rejectUnknown();
                    writeChange(
                            ctx,
                            svc.escalate(
                                    HttpApi.tenant(ctx), ref, expected, owner, note, actor(ctx)));
                });
        app.post(
                "/v1/ops/breaks/{id}/resolve",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    BreakRef ref = ref(ctx);
                    Fields f = Fields.of(HttpApi.body(ctx));
                    long expected = expectedVersion(f);
                    BreakStatus status =
                            f.optionalText("expectedStatus", 16) == null
                                    ? null
                                    : enumField(f, "expectedStatus");
                    Fields ev = f.object("evidence");
                    BreakEvidence evidence = BreakEvidence.parse(ev);
                    f.rejectUnknown();
                    writeChange(
                            ctx,
                            svc.resolve(
                                    HttpApi.tenant(ctx),
                                    ref,
                                    status,
                                    expected,
                                    evidence,
                                    actor(ctx)));
                });
    }

    private static BreakStatus enumField(Fields f, String name) {
        return f.enumValue(name, BreakStatus.class);
    }

    static OpsActor actor(Context ctx) {
        return OpsActor.of(HttpApi.principal(ctx));
    }

    static long expectedVersion(Fields f) {
        Long v = f.optionalLong("expectedVersion");
        if (v == null) {
            throw ApiException.badRequest(
                    "MISSING_FIELD", "required field 'expectedVersion' is missing");
        }
        return v;
    }

    static String requiredText(Fields f, String name, int max) {
        String v = f.optionalText(name, max);
        if (v == null || v.isBlank()) {
            throw ApiException.badRequest(
                    "MISSING_FIELD", "required field '" + name + "' is missing");
        }
        return v;
    }

    static @Nullable Instant instantParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    "INVALID_FIELD",
                    "query parameter '" + name + "' must be an ISO-8601 UTC instant");
        }
    }

    private static BreakRef ref(Context ctx) {
        try {
            return BreakRef.parse(ctx.pathParam("id"));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("INVALID_FIELD", e.getMessage());
        }
    }

    /** 200 with the break after the change; 404; 409 naming its current status and version. */
    private static void writeChange(Context ctx, BreakRepository.Result r) throws Exception {
        switch (r.outcome()) {
            case DONE -> HttpApi.writeRead(ctx, BreakDocs.entry(r.current()));
            case NOT_FOUND -> throw ApiException.notFound("no break " + ctx.pathParam("id"));
            case CONFLICT ->
                    throw ApiException.conflict(
                            "STALE_VERSION",
                            "break is "
                                    + r.current().status()
                                    + " at version "
                                    + r.current().version()
                                    + "; the change expected another status or version");
        }
    }
}
