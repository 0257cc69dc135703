package io.streamledger.operators.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The gate's records and state are Flink POJOs: evolvable serializers, no Kryo anywhere. */
class GateTypesTest {

    private static <T> T roundTrip(TypeInformation<T> type, T value) throws Exception {
        ExecutionConfig config = new ExecutionConfig();
        config.disableGenericTypes();
        TypeSerializer<T> s = type.createSerializer(config.getSerializerConfig());
        assertThat(s).isInstanceOf(PojoSerializer.class);
        DataOutputSerializer out = new DataOutputSerializer(128);
        s.serialize(value, out);
        return s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    @Test
    void everyGateTypeIsAPojoWithoutGenericFields() {
        for (TypeInformation<?> t :
                List.of(
                        GateState.GATE_EVENT,
                        GateState.DEAD_LETTER,
                        GateState.GAP_NOTICE,
                        GateState.GAP_BREAK,
                        GateState.OPEN_GAP_TYPE,
                        GateState.PARKED_GAP)) {
            assertThat(t).isInstanceOf(PojoTypeInfo.class);
            PojoTypeInfo<?> p = (PojoTypeInfo<?>) t;
            for (int i = 0; i < p.getArity(); i++) {
                assertThat(p.getTypeAt(i).getClass().getSimpleName())
                        .as("%s field %d", t, i)
                        .isNotEqualTo("GenericTypeInfo");
            }
        }
    }

    @Test
    void recordsSurviveTheirSerializers() throws Exception {
        GateEvent e = new GateEvent("k", 7, "fill-7", 11L, 12L, "TradeExecuted", "{\"q\":\"1\"}");
        assertThat(roundTrip(GateState.GATE_EVENT, e)).isEqualTo(e);
        GateEvent replay = new GateEvent("k", 7, "fill-7", 11L, 12L, "TradeExecuted", "{}");
        replay.setReplayOf("TEN#t#DLQ#projection\nDL#PARK_OVERFLOW#x");
        replay.setReplayVersion(3);
        GateEvent tagged = roundTrip(GateState.GATE_EVENT, replay);
        assertThat(tagged.getReplayOf()).isEqualTo(replay.getReplayOf());
        assertThat(tagged.getReplayVersion()).isEqualTo(3);

        DeadLetter d = new DeadLetter(DeadLetterReason.PARK_OVERFLOW, "full", 5L, e);
        assertThat(roundTrip(GateState.DEAD_LETTER, d)).isEqualTo(d);

        GapBreak b = new GapBreak("k", 3, 1L, 2L, 60_000L, 4);
        GapBreak back = roundTrip(GateState.GAP_BREAK, b);
        assertThat(back).isEqualTo(b);
        assertThat(back.getBreakId()).isEqualTo("GAP#k#V#3");

        ParkedGap pg =
                new ParkedGap(
                        "t/k",
                        ParkedGapChange.SKIPPED,
                        3,
                        1L,
                        2L,
                        2,
                        new long[] {4, 5},
                        true,
                        9L,
                        "ops:a",
                        "why");
        assertThat(roundTrip(GateState.PARKED_GAP, pg)).isEqualTo(pg);

        GapNotice n = new GapNotice("k", GapStatus.OPENED, 3, 1L, 2L, 4);
        assertThat(roundTrip(GateState.GAP_NOTICE, n)).isEqualTo(n);

        OpenGap g = new OpenGap(3, 1L, 60_001L, 4);
        g.setLastBreakVersion(3);
        OpenGap gBack = roundTrip(GateState.OPEN_GAP_TYPE, g);
        assertThat(gBack.getMissingVersion()).isEqualTo(3);
        assertThat(gBack.getTimerAtMillis()).isEqualTo(60_001L);
        assertThat(gBack.getParkedCount()).isEqualTo(4);
        assertThat(gBack.overdue()).isTrue();
    }
}
