/** Venue trading calendars: the clock of time in force (CS04, DAY and GTD expiry). */
package io.streamledger.model.calendar;
