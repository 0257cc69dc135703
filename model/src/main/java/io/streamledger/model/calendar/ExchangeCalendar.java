package io.streamledger.model.calendar;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One venue's trading calendar, the clock of time in force (CS04): trading days, holidays, half
 * days and the session close in the venue's own time zone, so the close follows daylight saving
 * (16:00 New York is 21:00 UTC in winter, 20:00 UTC in summer). Pure {@code java.time}.
 *
 * @param venue venue id, e.g. {@code XNYS}
 * @param zone the venue's time zone
 * @param close regular session close, venue-local
 * @param halfDayClose session close of a half day, venue-local, before {@code close}
 * @param weekend days of the week without a session
 * @param holidays dates without a session
 * @param halfDays dates whose session closes at {@code halfDayClose}; never a holiday
 * @param coveredThrough the last date the holiday list was maintained for: after it only weekends
 *     are known, so the calendar must be extended before then
 */
public record ExchangeCalendar(
        String venue,
        ZoneId zone,
        LocalTime close,
        LocalTime halfDayClose,
        Set<DayOfWeek> weekend,
        SortedSet<LocalDate> holidays,
        SortedSet<LocalDate> halfDays,
        LocalDate coveredThrough) {

    /** A search for the next session never looks further (a calendar must have sessions). */
    static final int MAX_DAYS_WITHOUT_SESSION = 31;

    public ExchangeCalendar {
        Objects.requireNonNull(venue, "venue");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(close, "close");
        Objects.requireNonNull(halfDayClose, "halfDayClose");
        Objects.requireNonNull(coveredThrough, "coveredThrough");
        weekend = weekend.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(weekend));
        holidays = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(holidays));
        halfDays = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(halfDays));
        if (!halfDayClose.isBefore(close)) {
            throw new IllegalArgumentException(
                    venue + ": halfDayClose " + halfDayClose + " must be before close " + close);
        }
        if (weekend.size() >= 7) {
            throw new IllegalArgumentException(venue + ": a week needs at least one session");
        }
        for (LocalDate d : halfDays) {
            if (holidays.contains(d)) {
                throw new IllegalArgumentException(
                        venue + ": " + d + " is both a holiday and a half day");
            }
        }
    }

    /** True when {@code date} has a session. */
    public boolean isTradingDay(LocalDate date) {
        return !weekend.contains(date.getDayOfWeek()) && !holidays.contains(date);
    }

    /** The session close of {@code date}, or empty when it has no session. */
    public Optional<Instant> sessionClose(LocalDate date) {
        if (!isTradingDay(date)) {
            return Optional.empty();
        }
        LocalTime at = halfDays.contains(date) ? halfDayClose : close;
        return Optional.of(ZonedDateTime.of(date, at, zone).toInstant());
    }

    /**
     * The first session close strictly after {@code t}: when a DAY order accepted at {@code t}
     * expires. An order accepted at or after a close, on a holiday or a weekend belongs to the next
     * session.
     */
    public Instant nextCloseAfter(Instant t) {
        LocalDate d = t.atZone(zone).toLocalDate();
        for (int i = 0; i <= MAX_DAYS_WITHOUT_SESSION; i++, d = d.plusDays(1)) {
            Optional<Instant> c = sessionClose(d);
            if (c.isPresent() && c.get().isAfter(t)) {
                return c.get();
            }
        }
        throw new IllegalStateException(
                venue + " has no session within " + MAX_DAYS_WITHOUT_SESSION + " days of " + t);
    }

    /** The venue-local trading date whose session an instant belongs to (the next one, if none). */
    public LocalDate sessionDate(Instant t) {
        return nextCloseAfter(t).atZone(zone).toLocalDate();
    }

    /** True when the holiday list still covers {@code date}. */
    public boolean covers(LocalDate date) {
        return !date.isAfter(coveredThrough);
    }
}
