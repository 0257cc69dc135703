package io.streamledger.model.calendar;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.streamledger.model.json.StrictMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The venue calendars of a deployment and which venue's session an order of a currency follows
 * (CS04 time in force): every order of a currency expires on its venue's close, a currency without
 * an entry on the default venue's. Read from JSON ({@link #parse}); {@link #DEFAULT} is the bundled
 * {@code calendars/default.json}: XNYS, 16:00 America/New_York, half days at 13:00, its published
 * holidays and half days, for USD and every other currency.
 */
public final class ExchangeCalendars {

    /** Classpath resource of the bundled calendars. */
    public static final String DEFAULT_RESOURCE = "/calendars/default.json";

    /** The bundled calendars (XNYS for every currency). */
    public static final ExchangeCalendars DEFAULT = parse(readDefault());

    private final Map<String, ExchangeCalendar> venues;
    private final Map<String, String> venueByCurrency;
    private final String defaultVenue;

    public ExchangeCalendars(
            Map<String, ExchangeCalendar> venues,
            Map<String, String> venueByCurrency,
            String defaultVenue) {
        this.venues = Map.copyOf(venues);
        this.venueByCurrency = Map.copyOf(venueByCurrency);
        this.defaultVenue = Objects.requireNonNull(defaultVenue, "default");
        venue(defaultVenue);
        venueByCurrency.forEach((ccy, v) -> venue(v));
    }

    /** One venue only, for every currency. */
    public static ExchangeCalendars of(ExchangeCalendar only) {
        return new ExchangeCalendars(Map.of(only.venue(), only), Map.of(), only.venue());
    }

    /** The calendar of the venue whose session orders in {@code currency} follow. */
    public ExchangeCalendar forCurrency(String currency) {
        return venue(venueByCurrency.getOrDefault(currency, defaultVenue));
    }

    /** A venue by id. */
    public ExchangeCalendar venue(String id) {
        ExchangeCalendar c = venues.get(id);
        if (c == null) {
            throw new IllegalArgumentException("no calendar for venue '" + id + "'");
        }
        return c;
    }

    /** Every venue, by id. */
    public Map<String, ExchangeCalendar> venues() {
        return venues;
    }

    /** Venues whose holiday list ends before {@code date}: they must be extended. */
    public List<ExchangeCalendar> notCovering(LocalDate date) {
        return venues.values().stream().filter(c -> !c.covers(date)).toList();
    }

    /** The file format (see the model README): unknown fields are refused. */
    record File(
            @JsonProperty("default") String defaultVenue,
            Map<String, String> currencies,
            Map<String, Venue> venues) {}

    record Venue(
            String zone,
            String close,
            String halfDayClose,
            List<String> weekend,
            List<String> holidays,
            List<String> halfDays,
            String coveredThrough) {}

    /** Parses the JSON calendar file; a malformed one names the venue and field at fault. */
    public static ExchangeCalendars parse(String json) {
        File f;
        try {
            f = StrictMapper.MAPPER.readValue(json, File.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("calendar file: " + e.getOriginalMessage(), e);
        }
        Map<String, ExchangeCalendar> venues = new LinkedHashMap<>();
        required(f.venues(), "venues").forEach((id, v) -> venues.put(id, venue(id, v)));
        return new ExchangeCalendars(
                venues,
                f.currencies() == null ? Map.of() : f.currencies(),
                required(f.defaultVenue(), "default"));
    }

    private static ExchangeCalendar venue(String id, Venue v) {
        try {
            EnumSet<DayOfWeek> weekend = EnumSet.noneOf(DayOfWeek.class);
            for (String d : required(v.weekend(), "weekend")) {
                weekend.add(DayOfWeek.valueOf(d));
            }
            return new ExchangeCalendar(
                    id,
                    ZoneId.of(required(v.zone(), "zone")),
                    LocalTime.parse(required(v.close(), "close")),
                    LocalTime.parse(required(v.halfDayClose(), "halfDayClose")),
                    weekend,
                    dates(v.holidays()),
                    dates(v.halfDays()),
                    LocalDate.parse(required(v.coveredThrough(), "coveredThrough")));
        } catch (DateTimeException | IllegalArgumentException e) {
            throw new IllegalArgumentException("calendar venue '" + id + "': " + e.getMessage(), e);
        }
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException("field '" + field + "' is required");
        }
        return value;
    }

    private static TreeSet<LocalDate> dates(List<String> texts) {
        TreeSet<LocalDate> out = new TreeSet<>();
        for (String t : texts == null ? new ArrayList<String>() : texts) {
            if (!out.add(LocalDate.parse(t))) {
                throw new IllegalArgumentException("date " + t + " is listed twice");
            }
        }
        return out;
    }

    private static String readDefault() {
        try (InputStream in = ExchangeCalendars.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(DEFAULT_RESOURCE + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
