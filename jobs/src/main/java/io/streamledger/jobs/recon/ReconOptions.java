package io.streamledger.jobs.recon;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.money.OverdraftExemptions;
import io.streamledger.operators.ledgercheck.LedgerCheckConfig;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Options of the ledger-check and reconciliation jobs and of the AP15 break queue (CS11, AP14,
 * AP15); transport, AWS and table-prefix options are {@link
 * io.streamledger.jobs.config.JobOptions}.
 */
public final class ReconOptions {

    private ReconOptions() {}

    public static final ConfigOption<Duration> TXN_SLA =
            ConfigOptions.key("streamledger.ledgercheck.txn-sla")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription("How long a ledger transaction may stay incomplete.");

    public static final ConfigOption<Duration> CONTROL_SLA =
            ConfigOptions.key("streamledger.ledgercheck.control-sla")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription(
                            "How long postings and the authority version naming their txn may"
                                    + " wait for each other before the control total is decided.");

    public static final ConfigOption<Duration> GAP_SLA =
            ConfigOptions.key("streamledger.ledgercheck.gap-sla")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription("How long a missing authority version may stay missing.");

    public static final ConfigOption<Long> MONTHLY_POSTING_LIMIT =
            ConfigOptions.key("streamledger.ledgercheck.monthly-posting-limit")
                    .longType()
                    .defaultValue(PostingSequence.MAX_POSTINGS_PER_MONTH)
                    .withDescription("AP10: postings per account-month (seed: 2,000,000).");

    public static final ConfigOption<String> OVERDRAFT_EXEMPT =
            ConfigOptions.key("streamledger.ledgercheck.overdraft-exempt-prefixes")
                    .stringType()
                    .defaultValue(String.join(",", OverdraftExemptions.DEFAULT_PREFIXES))
                    .withDescription(
                            "Comma-separated account-id prefixes allowed a negative available.");

    public static final ConfigOption<String> BREAK_OWNER =
            ConfigOptions.key("streamledger.breaks.owner")
                    .stringType()
                    .defaultValue("finance-ops")
                    .withDescription("Owner of newly found breaks (AP15 owned resolution).");

    public static final ConfigOption<Duration> BREAK_DUE_AFTER =
            ConfigOptions.key("streamledger.breaks.due-after")
                    .durationType()
                    .defaultValue(Duration.ofHours(24))
                    .withDescription("Time from detection until a break is due.");

    public static final ConfigOption<Duration> RECON_WINDOW =
            ConfigOptions.key("streamledger.recon.window")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(15))
                    .withDescription("Size of the declared event-time reconciliation window.");

    public static final ConfigOption<Duration> RECON_ALLOWED_LATENESS =
            ConfigOptions.key("streamledger.recon.allowed-lateness")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription("Late records re-fire the window's batch until this passes.");

    public static final ConfigOption<Duration> RECON_OUT_OF_ORDERNESS =
            ConfigOptions.key("streamledger.recon.out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription("Bounded out-of-orderness of business time.");

    public static final ConfigOption<Duration> RECON_IDLENESS =
            ConfigOptions.key("streamledger.recon.idleness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription("A quiet shard stops holding the watermark back after this.");

    public static final ConfigOption<Duration> PROJECTION_SLA =
            ConfigOptions.key("streamledger.recon.projection-sla")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription("A Portfolio row may lag its authority by less than this.");

    public static final ConfigOption<String> EXECUTION_STREAM_ARN =
            ConfigOptions.key("streamledger.recon.execution.stream-arn")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Stream of the Execution table (fills).");

    public static final ConfigOption<String> LEDGER_STREAM_ARN =
            ConfigOptions.key("streamledger.recon.ledger.stream-arn")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Stream of the Ledger table (postings, authorities).");

    public static final ConfigOption<String> ORDERS_STREAM_ARN =
            ConfigOptions.key("streamledger.recon.orders.stream-arn")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Stream of the Orders table (order versions) for the order <-> fill"
                                    + " check; without it the check does not run.");

    public static io.streamledger.operators.recon.ReconConfig reconConfig(ReadableConfig conf) {
        return io.streamledger.operators.recon.ReconConfig.of(
                        conf.get(RECON_WINDOW),
                        conf.get(RECON_ALLOWED_LATENESS),
                        conf.get(PROJECTION_SLA))
                .withViewScope(conf.get(JobOptions.PROJECTION_SCOPE));
    }

    public static LedgerCheckConfig ledgerCheckConfig(ReadableConfig conf) {
        LedgerCheckConfig base =
                LedgerCheckConfig.of(conf.get(TXN_SLA), conf.get(CONTROL_SLA), conf.get(GAP_SLA));
        List<String> exempt =
                Arrays.stream(conf.get(OVERDRAFT_EXEMPT).split(","))
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .toList();
        return new LedgerCheckConfig(
                base.txnSlaMillis(),
                base.controlSlaMillis(),
                base.gapSlaMillis(),
                base.doneRetentionMillis(),
                base.maxLinesPerTxn(),
                base.maxParkedVersions(),
                conf.get(MONTHLY_POSTING_LIMIT),
                exempt);
    }
}
