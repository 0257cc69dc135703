package io.streamledger.model.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The venue calendar behind DAY expiry (CS04): closes follow the venue's zone, holidays, half days.
 */
class ExchangeCalendarTest {

    static final ExchangeCalendar XNYS = ExchangeCalendars.DEFAULT.forCurrency("USD");

    @Test
    void theDefaultIsAUsVenueClosingAt1600NewYorkAndEveryCurrencyFollowsIt() {
        assertThat(XNYS.venue()).isEqualTo("XNYS");
        assertThat(XNYS.zone()).isEqualTo(ZoneId.of("America/New_York"));
        assertThat(XNYS.close()).isEqualTo(LocalTime.of(16, 0));
        assertThat(XNYS.halfDayClose()).isEqualTo(LocalTime.of(13, 0));
        assertThat(ExchangeCalendars.DEFAULT.forCurrency("EUR")).isSameAs(XNYS);
        assertThat(XNYS.covers(LocalDate.parse("2027-12-31"))).isTrue();
        assertThat(XNYS.covers(LocalDate.parse("2028-01-03"))).isFalse();
    }

    @Test
    void theCloseFollowsDaylightSavingInUtc() {
        // EST (UTC-5) before 2026-03-08, EDT (UTC-4) after; back to EST on 2026-11-01
        assertThat(XNYS.sessionClose(LocalDate.parse("2026-03-06")))
                .contains(Instant.parse("2026-03-06T21:00:00Z"));
        assertThat(XNYS.sessionClose(LocalDate.parse("2026-03-09")))
                .contains(Instant.parse("2026-03-09T20:00:00Z"));
        assertThat(XNYS.sessionClose(LocalDate.parse("2026-10-30")))
                .contains(Instant.parse("2026-10-30T20:00:00Z"));
        assertThat(XNYS.sessionClose(LocalDate.parse("2026-11-02")))
                .contains(Instant.parse("2026-11-02T21:00:00Z"));
    }

    @Test
    void aDayOrderBelongsToTheNextCloseAfterItsAcceptance() {
        // Friday before the close, at the close, after it: the weekend is skipped
        assertThat(XNYS.nextCloseAfter(Instant.parse("2026-03-06T15:00:00Z")))
                .isEqualTo(Instant.parse("2026-03-06T21:00:00Z"));
        assertThat(XNYS.nextCloseAfter(Instant.parse("2026-03-06T21:00:00Z")))
                .as("accepted at the close: the next session, across the DST change")
                .isEqualTo(Instant.parse("2026-03-09T20:00:00Z"));
        assertThat(XNYS.nextCloseAfter(Instant.parse("2026-03-07T12:00:00Z")))
                .isEqualTo(Instant.parse("2026-03-09T20:00:00Z"));
        // late evening New York is already the next UTC day: the venue's date decides
        assertThat(XNYS.nextCloseAfter(Instant.parse("2026-03-10T02:00:00Z")))
                .isEqualTo(Instant.parse("2026-03-10T20:00:00Z"));
    }

    @Test
    void holidaysHaveNoSessionAndHalfDaysCloseAt1300() {
        LocalDate goodFriday = LocalDate.parse("2026-04-03");
        assertThat(XNYS.isTradingDay(goodFriday)).isFalse();
        assertThat(XNYS.sessionClose(goodFriday)).isEmpty();
        // Thursday after the close: Friday is a holiday, the next session is Monday
        assertThat(XNYS.nextCloseAfter(Instant.parse("2026-04-02T20:30:00Z")))
                .isEqualTo(Instant.parse("2026-04-06T20:00:00Z"));
        // Thanksgiving Thursday closed, Friday a half day at 13:00 EST = 18:00 UTC
        assertThat(XNYS.nextCloseAfter(Instant.parse("2026-11-25T22:00:00Z")))
                .isEqualTo(Instant.parse("2026-11-27T18:00:00Z"));
        assertThat(XNYS.sessionDate(Instant.parse("2026-11-26T15:00:00Z")))
                .isEqualTo(LocalDate.parse("2026-11-27"));
    }

    @Test
    void aConfiguredVenueUsesItsOwnZoneAndDates() {
        ExchangeCalendars cals =
                ExchangeCalendars.parse(
                        """
                        {"default":"XNYS","currencies":{"GBP":"XLON"},"venues":{
                          "XNYS":{"zone":"America/New_York","close":"16:00","halfDayClose":"13:00",
                                  "weekend":["SATURDAY","SUNDAY"],"holidays":[],"halfDays":[],
                                  "coveredThrough":"2026-12-31"},
                          "XLON":{"zone":"Europe/London","close":"16:30","halfDayClose":"12:30",
                                  "weekend":["SATURDAY","SUNDAY"],"holidays":["2026-12-28"],
                                  "halfDays":["2026-12-24"],"coveredThrough":"2026-12-31"}}}
                        """);
        ExchangeCalendar xlon = cals.forCurrency("GBP");
        assertThat(xlon.venue()).isEqualTo("XLON");
        assertThat(cals.forCurrency("USD").venue()).isEqualTo("XNYS");
        assertThat(xlon.sessionClose(LocalDate.parse("2026-12-24")))
                .contains(Instant.parse("2026-12-24T12:30:00Z"));
        assertThat(xlon.nextCloseAfter(Instant.parse("2026-12-25T10:00:00Z")))
                .as("Friday 25th is a weekday without a listed holiday here; Monday 28th is one")
                .isEqualTo(Instant.parse("2026-12-25T16:30:00Z"));
        assertThat(xlon.nextCloseAfter(Instant.parse("2026-12-25T17:00:00Z")))
                .isEqualTo(Instant.parse("2026-12-29T16:30:00Z"));
        assertThat(cals.notCovering(LocalDate.parse("2027-01-04"))).hasSize(2);
    }

    @Test
    void malformedCalendarsAreRefusedWithTheFieldAtFault() {
        assertThatThrownBy(() -> ExchangeCalendars.parse("{\"default\":\"X\",\"venues\":{}}"))
                .hasMessageContaining("no calendar for venue 'X'");
        assertThatThrownBy(
                        () ->
                                ExchangeCalendars.parse(
                                        "{\"default\":\"X\",\"venues\":{\"X\":{\"zone\":\"Mars/Base\","
                                                + "\"close\":\"16:00\",\"halfDayClose\":\"13:00\","
                                                + "\"weekend\":[],\"coveredThrough\":\"2026-12-31\"}}}"))
                .hasMessageContaining("calendar venue 'X'");
        assertThatThrownBy(() -> ExchangeCalendars.parse("{\"default\":\"X\",\"venue\":{}}"))
                .hasMessageContaining("calendar file");
        assertThatThrownBy(
                        () ->
                                new ExchangeCalendar(
                                        "X",
                                        ZoneId.of("UTC"),
                                        LocalTime.of(16, 0),
                                        LocalTime.of(13, 0),
                                        Set.of(DayOfWeek.SUNDAY),
                                        new TreeSet<>(Set.of(LocalDate.parse("2026-12-24"))),
                                        new TreeSet<>(Set.of(LocalDate.parse("2026-12-24"))),
                                        LocalDate.parse("2026-12-31")))
                .hasMessageContaining("both a holiday and a half day");
    }
}
