package io.streamledger.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.deadletter.ReplayOutcome;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.operators.posting.PostingState;
import io.streamledger.operators.projection.ProjectionState;
import io.streamledger.operators.recon.ReconState;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;
import org.junit.jupiter.api.Test;

/**
 * Every type the jobs ship between operators or keep in state is a Flink POJO with an evolvable
 * PojoSerializer, never a silent Kryo fallback (generic types disabled).
 */
class FlinkTypesTest {

    @Test
    void jobTypesArePojosWithoutKryo() {
        SerializerConfigImpl noGenerics = new SerializerConfigImpl();
        noGenerics.setGenericTypes(false);
        List<TypeInformation<?>> types =
                List.of(
                        SourceTypes.RAW_CHANGE,
                        SourceTypes.DEAD_LETTER,
                        PostingState.FILL,
                        PostingState.OUTCOME,
                        ProjectionState.UPDATE,
                        ProjectionState.STATE_TYPE,
                        ReconState.EVENT,
                        ReplayOutcome.TYPE);
        for (TypeInformation<?> t : types) {
            assertThat(t).as(t.toString()).isInstanceOf(PojoTypeInfo.class);
            // createSerializer throws for a nested generic type when generic types are disabled
            assertThat(t.createSerializer(noGenerics)).isInstanceOf(PojoSerializer.class);
        }
    }
}
