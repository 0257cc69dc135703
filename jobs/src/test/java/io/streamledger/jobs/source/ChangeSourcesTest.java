package io.streamledger.jobs.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.StartingPosition;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kinesis.source.config.KinesisStreamsSourceConfigConstants;
import org.junit.jupiter.api.Test;

/** Starting positions of both transports (CS07: where a reader without a checkpoint starts). */
class ChangeSourcesTest {

    private static Configuration conf(StartingPosition start) {
        Configuration c = new Configuration();
        c.set(JobOptions.REGION, "us-east-1");
        c.set(JobOptions.STARTING_POSITION, start);
        return c;
    }

    @Test
    void dynamoDbStreamsStartsAtTrimHorizonOrLatest() {
        Properties p = ChangeSources.dynamoDbStreamsProperties(conf(StartingPosition.LATEST));
        assertThat(p.getProperty(ChangeSources.INITIAL_POSITION)).isEqualTo("LATEST");
        p = ChangeSources.dynamoDbStreamsProperties(conf(StartingPosition.TRIM_HORIZON));
        assertThat(p.getProperty(ChangeSources.INITIAL_POSITION)).isEqualTo("TRIM_HORIZON");
    }

    @Test
    void dynamoDbStreamsRejectsAtTimestampAtSubmissionWithTheWayOut() {
        Configuration c = conf(StartingPosition.AT_TIMESTAMP);
        c.set(JobOptions.STARTING_TIMESTAMP, "1764496800.5");
        assertThatThrownBy(() -> ChangeSources.dynamoDbStreamsProperties(c))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("AT_TIMESTAMP is not supported by DynamoDB Streams")
                .hasMessageContaining("KINESIS");
    }

    @Test
    void kinesisAtTimestampCarriesTheTimestamp() {
        Configuration c = conf(StartingPosition.AT_TIMESTAMP);
        c.set(JobOptions.STARTING_TIMESTAMP, "1764496800.5");
        Configuration k = ChangeSources.kinesisSourceConfig(c);
        assertThat(k.get(KinesisStreamsSourceConfigConstants.STREAM_INITIAL_POSITION))
                .isEqualTo(KinesisStreamsSourceConfigConstants.InitialPosition.AT_TIMESTAMP);
        assertThat(k.get(KinesisStreamsSourceConfigConstants.STREAM_INITIAL_TIMESTAMP))
                .isEqualTo("1764496800.5");
    }

    @Test
    void kinesisAtTimestampWithoutATimestampNamesTheMissingOption() {
        assertThatThrownBy(
                        () ->
                                ChangeSources.kinesisSourceConfig(
                                        conf(StartingPosition.AT_TIMESTAMP)))
                .hasMessageContaining(JobOptions.STARTING_TIMESTAMP.key());
    }
}
