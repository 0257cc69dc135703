package io.streamledger.model.table;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What each table may be replicated as and whether it is an authority (seed "Global Tables: make
 * the consistency mode explicit", "Backup, export, restore"): multi-Region eventually consistent
 * replicas resolve concurrent writes by last writer wins, which AP08 request leases, AP09 receipts
 * and AP12 authorities cannot tolerate; an authority table gets point-in-time recovery and deletion
 * protection. The one home of both rules: provisioning, the start-up check and {@code capacity
 * verify} read it.
 *
 * @param table logical table name
 * @param replication what replicas the table may have
 * @param aps the access patterns that decide it
 * @param why one line: the reason, by AP id
 * @param authority true when the table is the source of truth (PITR and deletion protection)
 */
public record TablePolicy(
        String table, Replication replication, List<String> aps, String why, boolean authority) {

    /** Replication a table may have. */
    public enum Replication {
        /** Multi-Region eventually consistent replicas are acceptable. */
        MREC_ALLOWED,
        /** One Region, or multi-Region strongly consistent (MRSC) replicas; never MREC. */
        SINGLE_REGION_OR_MRSC
    }

    public TablePolicy {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(replication, "replication");
        aps = List.copyOf(aps);
        Objects.requireNonNull(why, "why");
    }

    private static final List<TablePolicy> ALL =
            List.of(
                    new TablePolicy(
                            "Orders",
                            Replication.MREC_ALLOWED,
                            List.of("AP01", "AP17"),
                            "written only in the home Region inside CS01/CS04 transactions;"
                                    + " replicas serve eventual AP01-AP03 reads",
                            true),
                    new TablePolicy(
                            "Execution",
                            Replication.MREC_ALLOWED,
                            List.of("AP04", "AP05", "AP06"),
                            "fills are written once in the home Region (CS04); replicas serve"
                                    + " eventual AP05/AP06 reads",
                            false),
                    new TablePolicy(
                            "Portfolio",
                            Replication.MREC_ALLOWED,
                            List.of("AP07"),
                            "derived and rebuildable (CS09); never authorizes",
                            false),
                    new TablePolicy(
                            "Idempotency",
                            Replication.SINGLE_REGION_OR_MRSC,
                            List.of("AP08", "AP18"),
                            "AP08 request leases and fingerprints (and the duties' leases): last"
                                    + " writer wins would let two attempts own one request",
                            true),
                    new TablePolicy(
                            "Inbox",
                            Replication.SINGLE_REGION_OR_MRSC,
                            List.of("AP09"),
                            "AP09 receipts: two Regions each creating a receipt would apply one"
                                    + " event twice",
                            true),
                    new TablePolicy(
                            "Ledger",
                            Replication.SINGLE_REGION_OR_MRSC,
                            List.of("AP10", "AP12"),
                            "AP12 authorities: last writer wins on a balance or reservation loses"
                                    + " money movements",
                            true),
                    new TablePolicy(
                            "Projection",
                            Replication.MREC_ALLOWED,
                            List.of("AP13"),
                            "checkpoints of a rebuildable projection written by one job",
                            false),
                    new TablePolicy(
                            "Reconciliation",
                            Replication.MREC_ALLOWED,
                            List.of("AP14", "AP15"),
                            "batches and breaks are re-derivable; resolution is a conditional"
                                    + " write in the home Region",
                            false),
                    new TablePolicy(
                            "Context",
                            Replication.MREC_ALLOWED,
                            List.of("AP16"),
                            "outbox items are created in the home Region's CS01 transaction; a"
                                    + " second Region's relay could publish twice, which AP09"
                                    + " absorbs",
                            false),
                    new TablePolicy(
                            "DeadLetter",
                            Replication.MREC_ALLOWED,
                            List.of("CS08"),
                            "append-only records of rejected input",
                            false));

    private static final Map<String, TablePolicy> BY_TABLE =
            ALL.stream()
                    .collect(Collectors.toUnmodifiableMap(TablePolicy::table, Function.identity()));

    /** Every table's policy, in seed order. */
    public static List<TablePolicy> all() {
        return ALL;
    }

    /** The policy of a logical table. */
    public static TablePolicy of(String logicalTable) {
        TablePolicy p = BY_TABLE.get(logicalTable);
        if (p == null) {
            throw new IllegalArgumentException("no table policy for '" + logicalTable + "'");
        }
        return p;
    }

    /** True when this table must never have MREC replicas. */
    public boolean forbidsMrec() {
        return replication == Replication.SINGLE_REGION_OR_MRSC;
    }
}
