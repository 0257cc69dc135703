package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Recomputes the seed's capacity figures (render table, AP06/AP09/AP13/AP16 lanes, ledger buckets
 * for AP10/AP11) and the AMP01–AMP18 and LANE unit figures from item sizes, rates and DynamoDB's
 * rounding rules, independently of the numbers written in the contract.
 */
public final class CapacityModel {

    // --- Rounding rules: seed "Capacity, skew, and auditable amplification", first paragraph ---

    /** Standard writes round each item up to 1 KiB. */
    public static final BigDecimal WRITE_ROUNDING_KIB = new BigDecimal("1");

    /** Standard strong reads round evaluated bytes up to 4 KiB. */
    public static final BigDecimal READ_ROUNDING_KIB = new BigDecimal("4");

    /** Eventual reads cost half of a strong read. */
    public static final BigDecimal EVENTUAL_READ_FACTOR = new BigDecimal("0.5");

    /** Each transaction-targeted item (read or write) uses two underlying operations. */
    public static final BigDecimal TRANSACTION_FACTOR = new BigDecimal("2");

    /** Ordinary (non-transactional) base writes; multiplier in the AMP rows. */
    public static final BigDecimal ORDINARY_MULTIPLIER = BigDecimal.ONE;

    /** Asynchronous GSI entries always use index-multiplier=1 (contract block preamble). */
    public static final BigDecimal GSI_WRITE_MULTIPLIER = BigDecimal.ONE;

    /** The 80% lane target on the per-partition ceiling ("Mode and skew decisions", AP09/AP13). */
    public static final BigDecimal TARGET_UTILIZATION = new BigDecimal("0.80");

    /** Query consumption counts evaluated bytes; 1 KiB = 1024 B (query_eventual_units row). */
    public static final BigDecimal BYTES_PER_KIB = new BigDecimal("1024");

    /** 1 MiB = 1024 KiB (ledger_bucket_max_mib row "150000KiB/1024"). */
    public static final BigDecimal KIB_PER_MIB = new BigDecimal("1024");

    /** Seed prints per-shard loads, headroom and MiB with two decimals (769.23, 3.85, 146.48). */
    public static final int PRINTED_SCALE = 2;

    // --- Item sizes from the AP inventory (column "Cardinality and item size") ---

    /** AP01 "1x1.2KiB" order item. */
    public static final BigDecimal ORDER_ITEM_KIB = new BigDecimal("1.2");

    /** AP02 "100x0.45KiB/page" account-order GSI entry (projected summary). */
    public static final BigDecimal ACCOUNT_ORDER_ENTRY_KIB = new BigDecimal("0.45");

    /** AP02/AP05 "100x...KiB/page" items per listing page. */
    public static final BigDecimal LISTING_PAGE_ITEMS = new BigDecimal("100");

    /** AP03 "active subset 0.35KiB" status-order GSI entry. */
    public static final BigDecimal STATUS_ORDER_ENTRY_KIB = new BigDecimal("0.35");

    /** AP04 "1-20x0.9KiB" trade item. */
    public static final BigDecimal TRADE_ITEM_KIB = new BigDecimal("0.9");

    /** AP04 "1-20x0.9KiB": at most 20 fills per order. */
    public static final BigDecimal MAX_FILLS_PER_ORDER = new BigDecimal("20");

    /** AP05 "100x0.5KiB/page" account-trade GSI entry. */
    public static final BigDecimal ACCOUNT_TRADE_ENTRY_KIB = new BigDecimal("0.5");

    /** AP06 "100x0.4KiB/page;1page/request" symbol-trade GSI entry. */
    public static final BigDecimal SYMBOL_TRADE_ENTRY_KIB = new BigDecimal("0.4");

    /** AP06 "100x0.4KiB/page": items per page, one page per request. */
    public static final BigDecimal AP06_PAGE_ITEMS = new BigDecimal("100");

    /** AP06 peak rate "2000 query/s". */
    public static final BigDecimal AP06_QUERIES_PER_SECOND = new BigDecimal("2000");

    /** AP06 peak rate "top share 8%" (planning top-symbol share). */
    public static final BigDecimal AP06_TOP_SYMBOL_SHARE = new BigDecimal("0.08");

    /** AP07 "10-5000x0.8KiB" portfolio position item. */
    public static final BigDecimal POSITION_ITEM_KIB = new BigDecimal("0.8");

    /** AP08 "1x0.7KiB" idempotency record. */
    public static final BigDecimal IDEMPOTENCY_ITEM_KIB = new BigDecimal("0.7");

    /** AP09 "0.35KiB receipt" inbox receipt. */
    public static final BigDecimal INBOX_RECEIPT_KIB = new BigDecimal("0.35");

    /** AP09 "2x<=1KiB": the protected state is at most 1 KiB. */
    public static final BigDecimal PROTECTED_STATE_MAX_KIB = new BigDecimal("1");

    /** AP09 peak rate "5000 write/s" (events/s; AP09 prose "5,000 events/s"). */
    public static final BigDecimal AP09_EVENTS_PER_SECOND = new BigDecimal("5000");

    /** AP10 "2-20x0.6KiB" ledger posting. */
    public static final BigDecimal POSTING_KIB = new BigDecimal("0.6");

    /** AP10 "max2m/month"; ledger prose "2,000,000-posting/account/month admission limit". */
    public static final BigDecimal LEDGER_POSTINGS_PER_MONTH = new BigDecimal("2000000");

    /** AP10 "250k/bucket"; ledger prose "rolls at 250,000 postings". */
    public static final BigDecimal LEDGER_BUCKET_MAX_POSTINGS = new BigDecimal("250000");

    /** AP11 "8x<=150000KiB"; ledger prose "or 150,000 KiB, whichever comes first". */
    public static final BigDecimal LEDGER_BUCKET_MAX_KIB = new BigDecimal("150000");

    /** AP12 "1x0.8KiB" cash/securities authority item. */
    public static final BigDecimal AUTHORITY_ITEM_KIB = new BigDecimal("0.8");

    /** AP13 "1x0.3KiB" projection checkpoint. */
    public static final BigDecimal CHECKPOINT_ITEM_KIB = new BigDecimal("0.3");

    /**
     * AP13 peak rate "5000 write/s"; AP13 prose "5,000 ordinary sub-1-KiB conditional writes/s".
     */
    public static final BigDecimal AP13_WRITES_PER_SECOND = new BigDecimal("5000");

    /** AP14 "1-20KiB/batch": smallest batch metadata item (AMP10). */
    public static final BigDecimal RECON_BATCH_MIN_KIB = new BigDecimal("1");

    /** AP14 "1-20KiB/batch": largest batch item (lane L14). */
    public static final BigDecimal RECON_BATCH_MAX_KIB = new BigDecimal("20");

    /** AP15 "0-millionsx0.5KiB" discrepancy item and its due-queue entry. */
    public static final BigDecimal DISCREPANCY_ITEM_KIB = new BigDecimal("0.5");

    /** AP16 "1x1.6KiB" outbox event item. */
    public static final BigDecimal OUTBOX_ITEM_KIB = new BigDecimal("1.6");

    /** AP16 "+0.45KiB READY index" sparse READY GSI entry. */
    public static final BigDecimal READY_INDEX_ENTRY_KIB = new BigDecimal("0.45");

    /** AP16 peak rates "create5000/s;claim5100/s;complete5000/s;retry100/s;move20/s". */
    public static final Ap16Lifecycle AP16_LIFECYCLE =
            new Ap16Lifecycle(
                    new BigDecimal("5000"),
                    new BigDecimal("5100"),
                    new BigDecimal("5000"),
                    new BigDecimal("100"),
                    new BigDecimal("20"));

    /** AP17 "1x0.2KiB" client-order uniqueness sentinel. */
    public static final BigDecimal SENTINEL_ITEM_KIB = new BigDecimal("0.2");

    /** AP18 "rare 0.3KiB" idempotency repair GSI entry. */
    public static final BigDecimal REPAIR_ENTRY_KIB = new BigDecimal("0.3");

    // --- Worked examples of the render table itself ---

    /** strong_read_units row "10KiB/4KiB rounded". */
    public static final BigDecimal STRONG_READ_EXAMPLE_KIB = new BigDecimal("10");

    /** query_eventual_units row "24,000B evaluated before filter". */
    public static final BigDecimal QUERY_EVALUATED_BYTES = new BigDecimal("24000");

    /**
     * batch_eventual_units row "each item rounds separately". The seed does not name the items;
     * this model uses a BatchGetItem of the three sub-4-KiB accepted_order_v1 items (order,
     * idempotency record, AP17 sentinel): 3 x 0.5 = 1.5, where their 2.1 KiB sum would be 0.5.
     */
    public static final List<BigDecimal> BATCH_EXAMPLE_ITEMS_KIB =
            List.of(ORDER_ITEM_KIB, IDEMPOTENCY_ITEM_KIB, SENTINEL_ITEM_KIB);

    private CapacityModel() {}

    // --- Rounding primitives ---

    /** Write units of one item: ceil(size / 1 KiB). */
    public static BigDecimal writeUnits(BigDecimal itemKib) {
        return itemKib.divide(WRITE_ROUNDING_KIB, 0, RoundingMode.CEILING);
    }

    /** Strong read units of evaluated bytes: ceil(size / 4 KiB). */
    public static BigDecimal strongReadUnits(BigDecimal evaluatedKib) {
        return evaluatedKib.divide(READ_ROUNDING_KIB, 0, RoundingMode.CEILING);
    }

    /** Eventual read units: half of the strong figure. */
    public static BigDecimal eventualReadUnits(BigDecimal evaluatedKib) {
        return strongReadUnits(evaluatedKib).multiply(EVENTUAL_READ_FACTOR);
    }

    /** The lane target: 80% of the per-partition ceiling (2,400 RRU/s, 800 WRU/s). */
    public static BigDecimal targetUnitsPerSecond(UnitKind kind) {
        return kind.partitionLimitPerSecond().multiply(TARGET_UTILIZATION);
    }

    /** Shards needed so one key stays within the target: ceil(load / target). */
    public static BigDecimal shardsFor(BigDecimal hottestKeyLoad, UnitKind kind) {
        return hottestKeyLoad.divide(targetUnitsPerSecond(kind), 0, RoundingMode.CEILING);
    }

    /** Load per shard as the seed prints it: two decimals, half up. */
    public static BigDecimal perShard(BigDecimal load, BigDecimal shards) {
        return load.divide(shards, PRINTED_SCALE, RoundingMode.HALF_UP);
    }

    /** Headroom below the target in percent, from the unrounded per-shard load. */
    public static BigDecimal headroomPercent(BigDecimal load, BigDecimal shards, UnitKind kind) {
        BigDecimal capacity = targetUnitsPerSecond(kind).multiply(shards);
        return capacity.subtract(load)
                .multiply(new BigDecimal("100"))
                .divide(capacity, PRINTED_SCALE, RoundingMode.HALF_UP);
    }

    /** The seed's number notation: plain, no trailing zeros (15, 1.5, 787.69). */
    public static String format(BigDecimal value) {
        return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
    }

    // --- The render table, recomputed ---

    /** Every render-table figure in the seed's order, keyed by Result ID. */
    public static Map<String, Figure> figures() {
        Map<String, Figure> f = new LinkedHashMap<>();
        UnitKind w = UnitKind.WRITE;

        BigDecimal orderUnits = writeUnits(ORDER_ITEM_KIB);
        BigDecimal accountEntryUnits = writeUnits(ACCOUNT_ORDER_ENTRY_KIB);
        BigDecimal statusEntryUnits = writeUnits(STATUS_ORDER_ENTRY_KIB);
        put(f, "standard_write_units", orderUnits, "ceil(1.2KiB/1KiB)");
        put(
                f,
                "base_plus_index_units",
                orderUnits.add(accountEntryUnits.multiply(GSI_WRITE_MULTIPLIER)),
                "order + ordinary account-GSI put");
        put(
                f,
                "moved_index_units",
                orderUnits.add(statusEntryUnits.multiply(new BigDecimal("2"))),
                "order + status-GSI delete + put");

        BigDecimal strong = strongReadUnits(STRONG_READ_EXAMPLE_KIB);
        put(f, "strong_read_units", strong, "ceil(10KiB/4KiB)");
        put(f, "eventual_read_units", strong.multiply(EVENTUAL_READ_FACTOR), "strong x0.5");
        put(f, "transactional_read_units", strong.multiply(TRANSACTION_FACTOR), "strong x2");
        BigDecimal queryKib = QUERY_EVALUATED_BYTES.divide(BYTES_PER_KIB, 10, RoundingMode.UP);
        put(f, "query_eventual_units", eventualReadUnits(queryKib), "ceil(24000B/4096B) x0.5");
        BigDecimal batch = BigDecimal.ZERO;
        for (BigDecimal item : BATCH_EXAMPLE_ITEMS_KIB) {
            batch = batch.add(eventualReadUnits(item));
        }
        put(f, "batch_eventual_units", batch, "sum of per-item eventual units");

        AmplificationBasis accepted = amplificationBasis().get(ACCEPTED_ORDER_V1);
        BigDecimal acceptedBase = accepted.baseUnits().multiply(accepted.baseMultiplier());
        BigDecimal acceptedGsi = accepted.gsiUnits().multiply(accepted.gsiMultiplier());
        put(f, "accepted_order_v1_base_txn_units", acceptedBase, "(2+1+2+1) x2");
        put(f, "accepted_order_v1_gsi_units", acceptedGsi, "account+status+READY GSI");
        put(f, "accepted_order_v1_total_units", acceptedBase.add(acceptedGsi), "base+GSI");

        BigDecimal ap06PageKib = AP06_PAGE_ITEMS.multiply(SYMBOL_TRADE_ENTRY_KIB);
        BigDecimal ap06PerPage = eventualReadUnits(ap06PageKib);
        BigDecimal ap06Aggregate = AP06_QUERIES_PER_SECOND.multiply(ap06PerPage);
        BigDecimal ap06Top = ap06Aggregate.multiply(AP06_TOP_SYMBOL_SHARE);
        put(f, "ap06_page_kib", ap06PageKib, "100 x0.4KiB");
        put(f, "ap06_eventual_rru_per_page", ap06PerPage, "ceil(40/4) x0.5");
        put(f, "ap06_aggregate_rru_s", ap06Aggregate, "2000 q/s x per-page");
        put(f, "ap06_top_symbol_rru_s", ap06Top, "aggregate x8%");
        put(f, "ap06_shards", shardsFor(ap06Top, UnitKind.READ), "ceil(top/2400)");

        BigDecimal receiptTxn = writeUnits(INBOX_RECEIPT_KIB).multiply(TRANSACTION_FACTOR);
        BigDecimal protectedTxn = writeUnits(PROTECTED_STATE_MAX_KIB).multiply(TRANSACTION_FACTOR);
        BigDecimal ap09Aggregate = AP09_EVENTS_PER_SECOND.multiply(receiptTxn);
        BigDecimal ap09Shards = shardsFor(ap09Aggregate, w);
        put(f, "ap09_atomic_path_wru_per_event", receiptTxn.add(protectedTxn), "(1+1) x2");
        put(f, "ap09_receipt_wru_per_event", receiptTxn, "1 x2");
        put(f, "ap09_receipt_aggregate_wru_s", ap09Aggregate, "5000 x2");
        put(f, "ap09_receipt_shards", ap09Shards, "ceil(aggregate/800)");
        put(f, "ap09_receipt_per_shard_wru_s", perShard(ap09Aggregate, ap09Shards), "/shards");
        put(
                f,
                "ap09_receipt_headroom_percent",
                headroomPercent(ap09Aggregate, ap09Shards, w),
                "(800-perShard)/800");

        BigDecimal checkpoint = writeUnits(CHECKPOINT_ITEM_KIB).multiply(ORDINARY_MULTIPLIER);
        BigDecimal ap13Aggregate = AP13_WRITES_PER_SECOND.multiply(checkpoint);
        BigDecimal ap13Shards = shardsFor(ap13Aggregate, w);
        put(f, "ap13_checkpoint_wru_per_event", checkpoint, "ceil(0.3KiB) x1");
        put(f, "ap13_checkpoint_aggregate_wru_s", ap13Aggregate, "5000 x1");
        put(f, "ap13_checkpoint_shards", ap13Shards, "ceil(aggregate/800)");
        put(f, "ap13_checkpoint_per_shard_wru_s", perShard(ap13Aggregate, ap13Shards), "/shards");
        put(
                f,
                "ap13_checkpoint_headroom_percent",
                headroomPercent(ap13Aggregate, ap13Shards, w),
                "(800-perShard)/800");

        Ap16Lifecycle ap16 = AP16_LIFECYCLE;
        BigDecimal outbox = writeUnits(OUTBOX_ITEM_KIB);
        BigDecimal ready = writeUnits(READY_INDEX_ENTRY_KIB);
        BigDecimal ap16Base = ap16.baseTotalWruS(outbox);
        BigDecimal ap16Index = ap16.readyIndexTotalWruS(ready);
        BigDecimal ap16Shards = shardsFor(ap16Index, w);
        put(f, "ap16_create_base_wru_s", ap16.createBaseWruS(outbox), "create x2 x2");
        put(f, "ap16_claim_base_wru_s", ap16.claimBaseWruS(outbox), "claim x2");
        put(f, "ap16_complete_base_wru_s", ap16.completeBaseWruS(outbox), "complete x2");
        put(f, "ap16_retry_base_wru_s", ap16.retryBaseWruS(outbox), "retry x2");
        put(f, "ap16_reschedule_base_wru_s", ap16.rescheduleBaseWruS(outbox), "move x2");
        put(f, "ap16_base_total_wru_s", ap16Base, "sum of base transitions");
        put(f, "ap16_ready_create_insert_wru_s", ap16.readyCreateInsertWruS(ready), "create x1");
        put(f, "ap16_ready_claim_delete_wru_s", ap16.readyClaimDeleteWruS(ready), "claim x1");
        put(f, "ap16_ready_retry_insert_wru_s", ap16.readyRetryInsertWruS(ready), "retry x1");
        put(
                f,
                "ap16_ready_reschedule_move_wru_s",
                ap16.readyRescheduleMoveWruS(ready),
                "move x(delete+put)");
        put(
                f,
                "ap16_no_retry_move_floor_index_wru_s",
                ap16.noRetryMoveFloorIndexWruS(ready),
                "create + (claim-retry)");
        put(f, "ap16_ready_index_wru_s", ap16Index, "sum of READY actions");
        put(f, "ap16_ready_shards", ap16Shards, "ceil(index/800)");
        put(f, "ap16_per_shard_wru_s", perShard(ap16Index, ap16Shards), "/shards");
        put(
                f,
                "ap16_headroom_percent",
                headroomPercent(ap16Index, ap16Shards, w),
                "(800-perShard)/800");
        put(f, "ap16_total_lifecycle_wru_s", ap16Base.add(ap16Index), "base + READY index");

        BigDecimal monthKib = LEDGER_POSTINGS_PER_MONTH.multiply(POSTING_KIB);
        BigDecimal byCount =
                LEDGER_POSTINGS_PER_MONTH.divide(
                        LEDGER_BUCKET_MAX_POSTINGS, 0, RoundingMode.CEILING);
        BigDecimal byBytes = monthKib.divide(LEDGER_BUCKET_MAX_KIB, 0, RoundingMode.CEILING);
        BigDecimal bucketKib =
                LEDGER_BUCKET_MAX_POSTINGS.multiply(POSTING_KIB).min(LEDGER_BUCKET_MAX_KIB);
        put(f, "ledger_month_kib", monthKib, "2m x0.6KiB");
        put(f, "ledger_sub_buckets", byCount.max(byBytes), "max(count ceiling, byte ceiling)");
        put(
                f,
                "ledger_bucket_max_mib",
                bucketKib.divide(KIB_PER_MIB, PRINTED_SCALE, RoundingMode.HALF_UP),
                "min(250k x0.6, 150000)KiB/1024");
        return f;
    }

    private static void put(Map<String, Figure> f, String id, BigDecimal v, String derivation) {
        f.put(id, new Figure(id, v, derivation));
    }

    // --- AMP scenarios, recomputed ---

    static final String ACCEPTED_ORDER_V1 = "AMP14";

    /** AMP01–AMP18 recomputed from the item sizes (seed AMP table and AP16 state machine). */
    public static Map<String, AmplificationBasis> amplificationBasis() {
        BigDecimal tx = TRANSACTION_FACTOR;
        BigDecimal one = ORDINARY_MULTIPLIER;
        BigDecimal gsi = GSI_WRITE_MULTIPLIER;
        BigDecimal none = BigDecimal.ZERO;
        BigDecimal order = writeUnits(ORDER_ITEM_KIB);
        BigDecimal accountEntry = writeUnits(ACCOUNT_ORDER_ENTRY_KIB);
        BigDecimal statusEntry = writeUnits(STATUS_ORDER_ENTRY_KIB);
        BigDecimal outbox = writeUnits(OUTBOX_ITEM_KIB);
        BigDecimal ready = writeUnits(READY_INDEX_ENTRY_KIB);
        BigDecimal two = new BigDecimal("2");
        List<AmplificationBasis> all = new ArrayList<>();
        all.add(amp("AMP01", "AP01,AP02", "order create", 1, order, one, accountEntry, gsi));
        all.add(
                amp(
                        "AMP02",
                        "AP03",
                        "order status key move",
                        1,
                        order,
                        one,
                        statusEntry.multiply(two),
                        gsi));
        all.add(
                amp(
                        "AMP03",
                        "AP04,AP05,AP06",
                        "trade+two GSIs",
                        1,
                        writeUnits(TRADE_ITEM_KIB),
                        one,
                        writeUnits(ACCOUNT_TRADE_ENTRY_KIB).add(writeUnits(SYMBOL_TRADE_ENTRY_KIB)),
                        gsi));
        all.add(
                amp(
                        "AMP04",
                        "AP07",
                        "portfolio view update",
                        1,
                        writeUnits(POSITION_ITEM_KIB),
                        one,
                        none,
                        gsi));
        all.add(
                amp(
                        "AMP05",
                        "AP08,AP17",
                        "request+sentinel transaction",
                        2,
                        writeUnits(IDEMPOTENCY_ITEM_KIB).add(writeUnits(SENTINEL_ITEM_KIB)),
                        tx,
                        none,
                        gsi));
        all.add(
                amp(
                        "AMP06",
                        "AP09",
                        "inbox receipt+protected state",
                        2,
                        writeUnits(INBOX_RECEIPT_KIB).add(writeUnits(PROTECTED_STATE_MAX_KIB)),
                        tx,
                        none,
                        gsi));
        all.add(
                amp(
                        "AMP07",
                        "AP10,AP12",
                        "two postings+authority transaction",
                        3,
                        writeUnits(POSTING_KIB).multiply(two).add(writeUnits(AUTHORITY_ITEM_KIB)),
                        tx,
                        none,
                        gsi));
        all.add(amp("AMP08", "AP11", "ledger read only", 0, none, one, none, gsi));
        all.add(
                amp(
                        "AMP09",
                        "AP13",
                        "checkpoint update",
                        1,
                        writeUnits(CHECKPOINT_ITEM_KIB),
                        one,
                        none,
                        gsi));
        all.add(
                amp(
                        "AMP10",
                        "AP14",
                        "batch metadata",
                        1,
                        writeUnits(RECON_BATCH_MIN_KIB),
                        one,
                        none,
                        gsi));
        all.add(
                amp(
                        "AMP11",
                        "AP15",
                        "discrepancy+due GSI",
                        1,
                        writeUnits(DISCREPANCY_ITEM_KIB),
                        one,
                        writeUnits(DISCREPANCY_ITEM_KIB),
                        gsi));
        all.add(amp("AMP12", "AP16", "outbox create+READY insert", 1, outbox, tx, ready, gsi));
        all.add(
                amp(
                        "AMP13",
                        "AP18",
                        "failed state+repair GSI",
                        1,
                        writeUnits(IDEMPOTENCY_ITEM_KIB),
                        one,
                        writeUnits(REPAIR_ENTRY_KIB),
                        gsi));
        all.add(
                amp(
                        ACCEPTED_ORDER_V1,
                        "AP01,AP02,AP03,AP08,AP16,AP17",
                        "accepted_order_v1 complete route",
                        4,
                        order.add(writeUnits(IDEMPOTENCY_ITEM_KIB))
                                .add(outbox)
                                .add(writeUnits(SENTINEL_ITEM_KIB)),
                        tx,
                        accountEntry.add(statusEntry).add(ready),
                        gsi));
        all.add(amp("AMP15", "AP16", "READY claim+index removal", 1, outbox, one, ready, gsi));
        all.add(amp("AMP16", "AP16", "IN_FLIGHT completion", 1, outbox, one, none, gsi));
        all.add(amp("AMP17", "AP16", "IN_FLIGHT retry+READY insert", 1, outbox, one, ready, gsi));
        all.add(
                amp(
                        "AMP18",
                        "AP16",
                        "READY due/shard reschedule",
                        1,
                        outbox,
                        one,
                        ready.multiply(two),
                        gsi));
        Map<String, AmplificationBasis> byId = new LinkedHashMap<>();
        all.forEach(a -> byId.put(a.id(), a));
        return byId;
    }

    private static AmplificationBasis amp(
            String id,
            String aps,
            String scenario,
            int targets,
            BigDecimal base,
            BigDecimal baseMultiplier,
            BigDecimal gsiUnits,
            BigDecimal gsiMultiplier) {
        return new AmplificationBasis(
                id,
                List.of(aps.split(",")),
                scenario,
                targets,
                base,
                baseMultiplier,
                gsiUnits,
                gsiMultiplier);
    }

    // --- LANE units/op, recomputed ---

    /** Rounded units/operation of every lane (L01–L18), from the AP item sizes. */
    public static Map<String, LaneBasis> laneBasis() {
        UnitKind r = UnitKind.READ;
        UnitKind w = UnitKind.WRITE;
        BigDecimal tx = TRANSACTION_FACTOR;
        Map<String, LaneBasis> m = new LinkedHashMap<>();
        lane(m, "L01", r, strongReadUnits(ORDER_ITEM_KIB), "strong get of one 1.2KiB order");
        lane(
                m,
                "L02",
                r,
                eventualReadUnits(LISTING_PAGE_ITEMS.multiply(ACCOUNT_ORDER_ENTRY_KIB)),
                "eventual 100x0.45KiB page");
        lane(m, "L03", r, eventualReadUnits(STATUS_ORDER_ENTRY_KIB), "eventual, one 0.35KiB entry");
        lane(
                m,
                "L04",
                r,
                strongReadUnits(MAX_FILLS_PER_ORDER.multiply(TRADE_ITEM_KIB)),
                "strong 20x0.9KiB fills");
        lane(
                m,
                "L05",
                r,
                eventualReadUnits(LISTING_PAGE_ITEMS.multiply(ACCOUNT_TRADE_ENTRY_KIB)),
                "eventual 100x0.5KiB page");
        lane(
                m,
                "L06",
                r,
                eventualReadUnits(AP06_PAGE_ITEMS.multiply(SYMBOL_TRADE_ENTRY_KIB)),
                "eventual 100x0.4KiB page");
        lane(m, "L07", r, eventualReadUnits(POSITION_ITEM_KIB), "eventual, one 0.8KiB position");
        lane(m, "L08", w, writeUnits(IDEMPOTENCY_ITEM_KIB).multiply(tx), "0.7KiB x2 txn");
        lane(m, "L09A", w, writeUnits(INBOX_RECEIPT_KIB).multiply(tx), "receipt x2 txn");
        lane(
                m,
                "L09B",
                w,
                writeUnits(PROTECTED_STATE_MAX_KIB).multiply(tx),
                "protected state x2 txn");
        AmplificationBasis amp07 = amplificationBasis().get("AMP07");
        lane(
                m,
                "L10",
                w,
                amp07.baseUnits().multiply(amp07.baseMultiplier()),
                "AMP07 three items x2");
        lane(m, "L11", r, strongReadUnits(POSTING_KIB), "strong, one 4KiB chunk of postings");
        lane(m, "L12", w, writeUnits(AUTHORITY_ITEM_KIB).multiply(tx), "0.8KiB x2 txn");
        lane(m, "L13", w, writeUnits(CHECKPOINT_ITEM_KIB), "ordinary 0.3KiB write");
        lane(m, "L14", w, writeUnits(RECON_BATCH_MAX_KIB), "ordinary 20KiB batch write");
        lane(m, "L15A", r, eventualReadUnits(DISCREPANCY_ITEM_KIB), "eventual 0.5KiB");
        lane(m, "L15B", r, eventualReadUnits(DISCREPANCY_ITEM_KIB), "eventual 0.5KiB entry");
        // AP16 lanes carry write units/s already derived from the lifecycle, so 1 unit per unit.
        lane(m, "L16A", w, BigDecimal.ONE, "rate is IDX16 lifecycle WRU/s");
        lane(m, "L16B", w, BigDecimal.ONE, "rate is IDX17 lifecycle WRU/s");
        lane(m, "L17", w, writeUnits(SENTINEL_ITEM_KIB).multiply(tx), "0.2KiB x2 txn");
        lane(m, "L18", r, eventualReadUnits(REPAIR_ENTRY_KIB), "eventual 0.3KiB entry");
        return m;
    }

    private static void lane(
            Map<String, LaneBasis> m, String id, UnitKind kind, BigDecimal units, String why) {
        m.put(id, new LaneBasis(id, kind, units, why));
    }

    // --- Inputs that the AP rows must state ---

    /** Model constants paired with the AP-row text that states them. */
    public static List<ModelInput> modelInputs() {
        ModelInput.ApField size = ModelInput.ApField.CARDINALITY_AND_SIZE;
        ModelInput.ApField rate = ModelInput.ApField.PEAK_RATE;
        Ap16Lifecycle l = AP16_LIFECYCLE;
        List<ModelInput> in = new ArrayList<>();
        in.add(kib("AP01", ORDER_ITEM_KIB, "ORDER_ITEM_KIB"));
        in.add(kib("AP02", ACCOUNT_ORDER_ENTRY_KIB, "ACCOUNT_ORDER_ENTRY_KIB"));
        in.add(input("AP02", size, format(LISTING_PAGE_ITEMS) + "x", "LISTING_PAGE_ITEMS"));
        in.add(kib("AP03", STATUS_ORDER_ENTRY_KIB, "STATUS_ORDER_ENTRY_KIB"));
        in.add(kib("AP04", TRADE_ITEM_KIB, "TRADE_ITEM_KIB"));
        in.add(input("AP04", size, format(MAX_FILLS_PER_ORDER) + "x", "MAX_FILLS_PER_ORDER"));
        in.add(kib("AP05", ACCOUNT_TRADE_ENTRY_KIB, "ACCOUNT_TRADE_ENTRY_KIB"));
        in.add(input("AP05", size, format(LISTING_PAGE_ITEMS) + "x", "LISTING_PAGE_ITEMS"));
        in.add(kib("AP06", SYMBOL_TRADE_ENTRY_KIB, "SYMBOL_TRADE_ENTRY_KIB"));
        in.add(input("AP06", size, format(AP06_PAGE_ITEMS) + "x", "AP06_PAGE_ITEMS"));
        in.add(
                input(
                        "AP06",
                        rate,
                        format(AP06_QUERIES_PER_SECOND) + " query/s",
                        "AP06_QUERIES_PER_SECOND"));
        in.add(
                input(
                        "AP06",
                        rate,
                        "top share " + format(AP06_TOP_SYMBOL_SHARE.movePointRight(2)) + "%",
                        "AP06_TOP_SYMBOL_SHARE"));
        in.add(kib("AP07", POSITION_ITEM_KIB, "POSITION_ITEM_KIB"));
        in.add(kib("AP08", IDEMPOTENCY_ITEM_KIB, "IDEMPOTENCY_ITEM_KIB"));
        in.add(kib("AP09", INBOX_RECEIPT_KIB, "INBOX_RECEIPT_KIB"));
        in.add(
                input(
                        "AP09",
                        size,
                        "<=" + format(PROTECTED_STATE_MAX_KIB) + "KiB",
                        "PROTECTED_STATE_MAX_KIB"));
        in.add(
                input(
                        "AP09",
                        rate,
                        format(AP09_EVENTS_PER_SECOND) + " write/s",
                        "AP09_EVENTS_PER_SECOND"));
        in.add(kib("AP10", POSTING_KIB, "POSTING_KIB"));
        in.add(
                input(
                        "AP10",
                        size,
                        "max" + format(LEDGER_POSTINGS_PER_MONTH.movePointLeft(6)) + "m/month",
                        "LEDGER_POSTINGS_PER_MONTH"));
        in.add(
                input(
                        "AP10",
                        size,
                        format(LEDGER_BUCKET_MAX_POSTINGS.movePointLeft(3)) + "k/bucket",
                        "LEDGER_BUCKET_MAX_POSTINGS"));
        in.add(
                input(
                        "AP11",
                        size,
                        "<=" + format(LEDGER_BUCKET_MAX_KIB) + "KiB",
                        "LEDGER_BUCKET_MAX_KIB"));
        in.add(kib("AP12", AUTHORITY_ITEM_KIB, "AUTHORITY_ITEM_KIB"));
        in.add(kib("AP13", CHECKPOINT_ITEM_KIB, "CHECKPOINT_ITEM_KIB"));
        in.add(
                input(
                        "AP13",
                        rate,
                        format(AP13_WRITES_PER_SECOND) + " write/s",
                        "AP13_WRITES_PER_SECOND"));
        in.add(
                input(
                        "AP14",
                        size,
                        format(RECON_BATCH_MIN_KIB)
                                + "-"
                                + format(RECON_BATCH_MAX_KIB)
                                + "KiB/batch",
                        "RECON_BATCH_MIN_KIB/RECON_BATCH_MAX_KIB"));
        in.add(kib("AP15", DISCREPANCY_ITEM_KIB, "DISCREPANCY_ITEM_KIB"));
        in.add(kib("AP16", OUTBOX_ITEM_KIB, "OUTBOX_ITEM_KIB"));
        in.add(kib("AP16", READY_INDEX_ENTRY_KIB, "READY_INDEX_ENTRY_KIB"));
        in.add(
                input(
                        "AP16",
                        rate,
                        "create"
                                + format(l.create())
                                + "/s;claim"
                                + format(l.claim())
                                + "/s;complete"
                                + format(l.complete())
                                + "/s;retry"
                                + format(l.retry())
                                + "/s;move"
                                + format(l.move())
                                + "/s",
                        "AP16_LIFECYCLE"));
        in.add(kib("AP17", SENTINEL_ITEM_KIB, "SENTINEL_ITEM_KIB"));
        in.add(kib("AP18", REPAIR_ENTRY_KIB, "REPAIR_ENTRY_KIB"));
        return in;
    }

    private static ModelInput kib(String ap, BigDecimal kib, String constant) {
        return input(ap, ModelInput.ApField.CARDINALITY_AND_SIZE, format(kib) + "KiB", constant);
    }

    private static ModelInput input(
            String ap, ModelInput.ApField field, String fragment, String constant) {
        return new ModelInput(ap, field, fragment, constant);
    }
}
