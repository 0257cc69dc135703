package io.streamledger.command.config;

import io.streamledger.model.calendar.ExchangeCalendars;
import io.streamledger.model.ledger.BuyingPowerPolicy;
import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.money.OverdraftExemptions;
import io.streamledger.model.shard.SymbolSharding;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * Tunables of the admission service (AP08 lease, record retention, repair delay, AP12 overdraft
 * exemptions), with production defaults.
 *
 * @param lease AP08 IN_PROGRESS lease; short, so a crashed attempt is taken over quickly
 * @param retention how long request records are kept (TTL is cleanup only)
 * @param repairDelay how soon a REPAIR_REQUIRED record becomes due for the repair worker
 * @param repairIndexOnClaim whether an IN_PROGRESS claim is already in the IDX19 repair queue
 * @param overdraftExemptPrefixes account-id prefixes allowed a negative available balance
 * @param buyingPower what an order reserves at admission (AP12)
 * @param ledgerBucketPostings postings per AP10 bucket before the ledger route rolls to the next
 * @param symbolSharding AP06 write sharding of the IDX06 symbol index (unsharded by default)
 * @param house the posting job's house accounts (its {@code house-shards}): where a fill's contra
 *     lines are when a bust or reversal reads them back
 * @param calendars the venue calendars DAY/GTD orders expire on (CS04)
 */
public record ServiceConfig(
        String tablePrefix,
        Clock clock,
        Duration lease,
        Duration retention,
        Duration repairDelay,
        boolean repairIndexOnClaim,
        Set<String> overdraftExemptPrefixes,
        BuyingPowerPolicy buyingPower,
        long ledgerBucketPostings,
        SymbolSharding symbolSharding,
        HouseAccounts house,
        ExchangeCalendars calendars) {

    public static ServiceConfig defaults(String tablePrefix) {
        return new ServiceConfig(
                tablePrefix,
                Clock.systemUTC(),
                Duration.ofSeconds(5),
                Duration.ofDays(30),
                Duration.ofSeconds(2),
                true,
                Set.copyOf(OverdraftExemptions.DEFAULT_PREFIXES),
                BuyingPowerPolicy.DEFAULT,
                PostingSequence.MAX_POSTINGS_PER_BUCKET,
                SymbolSharding.UNSHARDED,
                new HouseAccounts(HouseAccounts.DEFAULT_SHARDS),
                ExchangeCalendars.DEFAULT);
    }

    public ServiceConfig withLease(Duration l) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                l,
                retention,
                repairDelay,
                repairIndexOnClaim,
                overdraftExemptPrefixes,
                buyingPower,
                ledgerBucketPostings,
                symbolSharding,
                house,
                calendars);
    }

    public ServiceConfig withClock(Clock c) {
        return new ServiceConfig(
                tablePrefix,
                c,
                lease,
                retention,
                repairDelay,
                repairIndexOnClaim,
                overdraftExemptPrefixes,
                buyingPower,
                ledgerBucketPostings,
                symbolSharding,
                house,
                calendars);
    }

    public ServiceConfig withRepairIndexOnClaim(boolean b) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                lease,
                retention,
                repairDelay,
                b,
                overdraftExemptPrefixes,
                buyingPower,
                ledgerBucketPostings,
                symbolSharding,
                house,
                calendars);
    }

    public ServiceConfig withRepairDelay(Duration d) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                lease,
                retention,
                d,
                repairIndexOnClaim,
                overdraftExemptPrefixes,
                buyingPower,
                ledgerBucketPostings,
                symbolSharding,
                house,
                calendars);
    }

    public ServiceConfig withBuyingPower(BuyingPowerPolicy p) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                lease,
                retention,
                repairDelay,
                repairIndexOnClaim,
                overdraftExemptPrefixes,
                p,
                ledgerBucketPostings,
                symbolSharding,
                house,
                calendars);
    }

    public ServiceConfig withOverdraftExemptPrefixes(Set<String> prefixes) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                lease,
                retention,
                repairDelay,
                repairIndexOnClaim,
                Set.copyOf(prefixes),
                buyingPower,
                ledgerBucketPostings,
                symbolSharding,
                house,
                calendars);
    }

    public ServiceConfig withLedgerBucketPostings(long n) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                lease,
                retention,
                repairDelay,
                repairIndexOnClaim,
                overdraftExemptPrefixes,
                buyingPower,
                n,
                symbolSharding,
                house,
                calendars);
    }

    public ServiceConfig withSymbolSharding(SymbolSharding s) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                lease,
                retention,
                repairDelay,
                repairIndexOnClaim,
                overdraftExemptPrefixes,
                buyingPower,
                ledgerBucketPostings,
                s,
                house,
                calendars);
    }

    public ServiceConfig withHouseShards(int shards) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                lease,
                retention,
                repairDelay,
                repairIndexOnClaim,
                overdraftExemptPrefixes,
                buyingPower,
                ledgerBucketPostings,
                symbolSharding,
                new HouseAccounts(shards),
                calendars);
    }

    public ServiceConfig withCalendars(ExchangeCalendars c) {
        return new ServiceConfig(
                tablePrefix,
                clock,
                lease,
                retention,
                repairDelay,
                repairIndexOnClaim,
                overdraftExemptPrefixes,
                buyingPower,
                ledgerBucketPostings,
                symbolSharding,
                house,
                c);
    }
}
