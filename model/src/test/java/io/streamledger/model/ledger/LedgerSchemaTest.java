package io.streamledger.model.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.PostingKey;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Instant;
import java.time.YearMonth;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one Ledger item schema (AP10/AP11/AP12): names are distinct, prefixes follow the grammar. */
class LedgerSchemaTest {

    @Test
    void everyAttributeNameIsDeclaredOnce() throws IllegalAccessException {
        Map<String, String> byValue = new HashMap<>();
        for (Field f : LedgerSchema.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers())
                    && f.getType() == String.class
                    && !f.getName().endsWith("_PREFIX")) {
                String previous = byValue.put((String) f.get(null), f.getName());
                assertThat(previous).as("%s and %s", previous, f.getName()).isNull();
            }
        }
        assertThat(byValue).containsKeys("txnId", "lineCount", "posted", "monthCount", "version");
    }

    @Test
    void prefixesRecogniseTheKeysOfTheGrammar() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        String posting = new PostingKey("t1", "a1", YearMonth.of(2026, 11), 3, at, "t-x", 2).sk();
        String cash = AuthorityKey.cash("t1", "a1", "USD").sk();
        String sec = AuthorityKey.security("t1", "a1", "AAPL").sk();
        String counter = new MonthCounterKey("t1", "a1", YearMonth.of(2026, 11)).sk();

        assertThat(LedgerSchema.POSTING_SK_PREFIX).isEqualTo("POST#");
        assertThat(LedgerSchema.isPosting(posting)).isTrue();
        assertThat(LedgerSchema.isCashAuthority(cash)).isTrue();
        assertThat(LedgerSchema.isSecurityAuthority(sec)).isTrue();
        assertThat(LedgerSchema.isAuthority(cash) && LedgerSchema.isAuthority(sec)).isTrue();
        assertThat(LedgerSchema.isCounter(counter)).isTrue();
        for (String other : new String[] {cash, sec, counter}) {
            assertThat(LedgerSchema.isPosting(other)).as(other).isFalse();
        }
        assertThat(LedgerSchema.isAuthority(posting) || LedgerSchema.isAuthority(counter))
                .isFalse();
        assertThat(LedgerSchema.isCounter(cash) || LedgerSchema.isCounter(posting)).isFalse();
    }

    @Test
    void postingMonthIsTheUtcCalendarMonth() {
        assertThat(LedgerSchema.month(Instant.parse("2026-11-30T23:59:59.999Z")))
                .isEqualTo(YearMonth.of(2026, 11));
        assertThat(LedgerSchema.month(Instant.parse("2026-12-01T00:00:00Z")))
                .isEqualTo(YearMonth.of(2026, 12));
    }
}
