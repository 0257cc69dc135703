package io.streamledger.aws.items;

import javax.annotation.Nullable;

/** One AP15 break as read from its IDX14 base item (strong read): what "show one break" returns. */
public record BreakView(
        String tenant,
        String batchId,
        String breakId,
        String reason,
        String origin,
        String subject,
        BreakStatus status,
        String owner,
        String detectedAt,
        String dueAt,
        long version,
        String evidence,
        @Nullable String resolvedBy,
        @Nullable String resolvedAt,
        @Nullable String resolutionEvidence) {}
