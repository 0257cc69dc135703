package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.BreakStatus;
import io.streamledger.aws.items.BreakView;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.StrictJson;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The AP15 finance-ops operations behind both the HTTP routes and {@link BreaksCli}: list the due
 * queue, show, assign, escalate and resolve — each change conditional on status and version and
 * audited in its own transaction; a resolve's evidence is verified against the ledger first.
 */
public final class BreakService {

    private final BreakRepository repo;
    private final LedgerEvidence evidence;
    private final Clock clock;

    public BreakService(BreakRepository repo, LedgerEvidence evidence, Clock clock) {
        this.repo = repo;
        this.evidence = evidence;
        this.clock = clock;
    }

    public BreakRepository repository() {
        return repo;
    }

    /**
     * Due breaks ({@code dueAt <= dueBefore}, default now) of one status or both queued ones.
     *
     * @throws ApiException 400 for a RESOLVED filter, a bad limit or cursor
     */
    public BreakRepository.Page list(
            String tenant,
            @Nullable BreakStatus status,
            @Nullable Instant dueBefore,
            @Nullable String cursor,
            int limit) {
        if (status == BreakStatus.RESOLVED) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "status must be OPEN or ESCALATED (the due queue)");
        }
        if (limit < 1 || limit > BreakRepository.MAX_PAGE) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "limit must be in [1, " + BreakRepository.MAX_PAGE + "]");
        }
        try {
            return repo.listDue(
                    tenant,
                    dueBefore == null ? clock.instant() : dueBefore,
                    status == null ? BreakRepository.QUEUED : List.of(status),
                    cursor,
                    limit);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("INVALID_CURSOR", e.getMessage());
        }
    }

    public Optional<BreakView> show(String tenant, BreakRef ref) {
        return repo.get(tenant, ref.batchId(), ref.breakId());
    }

    /** Hands the break to {@code owner}; 409 when its status or version moved. */
    public BreakRepository.Result assign(
            String tenant,
            BreakRef ref,
            long expectedVersion,
            String owner,
            @Nullable String note,
            OpsActor actor) {
        BreakView current = current(tenant, ref);
        if (!current.status().queued() || current.version() != expectedVersion) {
            return new BreakRepository.Result(BreakRepository.Outcome.CONFLICT, current);
        }
        ObjectNode detail =
                StrictJson.MAPPER
                        .createObjectNode()
                        .put("fromOwner", current.owner())
                        .put("owner", owner);
        if (note != null) {
            detail.put("note", note);
        }
        return repo.assign(
                tenant,
                ref.batchId(),
                ref.breakId(),
                current.status(),
                expectedVersion,
                owner,
                actor,
                detail.toString());
    }

    /** OPEN → ESCALATED (optionally to a new owner); 409 when not OPEN at that version. */
    public BreakRepository.Result escalate(
            String tenant,
            BreakRef ref,
            long expectedVersion,
            @Nullable String owner,
            @Nullable String note,
            OpsActor actor) {
        ObjectNode detail = StrictJson.MAPPER.createObjectNode();
        if (owner != null) {
            detail.put("owner", owner);
        }
        if (note != null) {
            detail.put("note", note);
        }
        return repo.escalate(
                tenant,
                ref.batchId(),
                ref.breakId(),
                expectedVersion,
                owner,
                actor,
                detail.toString());
    }

    /**
     * Resolves with verified evidence: 409 before any check when the status/version moved, 422
     * {@code EVIDENCE_REJECTED} when the ledger does not bear the evidence out.
     *
     * @param expectedStatus null = whatever queued status the break has at {@code expectedVersion}
     */
    public BreakRepository.Result resolve(
            String tenant,
            BreakRef ref,
            @Nullable BreakStatus expectedStatus,
            long expectedVersion,
            BreakEvidence cited,
            OpsActor actor) {
        if (expectedStatus == BreakStatus.RESOLVED) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "expectedStatus must be OPEN or ESCALATED");
        }
        BreakView current = current(tenant, ref);
        if (!current.status().queued()
                || current.version() != expectedVersion
                || (expectedStatus != null && current.status() != expectedStatus)) {
            return new BreakRepository.Result(BreakRepository.Outcome.CONFLICT, current);
        }
        LedgerEvidence.Verified verified = evidence.verify(current, cited);
        ObjectNode stored = cited.toJson();
        stored.set("verified", verified.facts());
        return repo.resolve(
                tenant,
                ref.batchId(),
                ref.breakId(),
                current.status(),
                expectedVersion,
                actor.label(),
                actor,
                stored.toString());
    }

    /** Escalates every overdue OPEN break (bounded per call, see the repository). */
    public int escalateOverdue(String tenant, String owner, OpsActor actor) {
        return repo.escalateOverdue(tenant, owner, actor);
    }

    private BreakView current(String tenant, BreakRef ref) {
        return show(tenant, ref).orElseThrow(() -> ApiException.notFound("no break " + ref.id()));
    }
}
