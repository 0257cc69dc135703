package io.streamledger.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.dynamodb.sink.DynamoDbSink;
import org.apache.flink.connector.dynamodb.sink.DynamoDbWriteRequest;
import org.apache.flink.connector.dynamodb.sink.DynamoDbWriteRequestType;
import org.apache.flink.connector.kinesis.source.KinesisStreamsSource;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Proves that the AWS connectors served here (4.3.0-1.19) load, build and run on the pinned Flink
 * 1.20 patch: a job graph with a {@code KinesisStreamsSource} and a {@code DynamoDbSink} is
 * compiled (which serializes both), and a bounded job through the {@code DynamoDbSink} runs to
 * completion on a MiniCluster.
 */
class ConnectorsLoadITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = new MiniClusterExtension();

    private static Properties awsProps() {
        Properties p = new Properties();
        p.setProperty("aws.region", "us-east-1");
        p.setProperty("aws.endpoint", "http://127.0.0.1:1");
        p.setProperty("aws.credentials.provider", "BASIC");
        p.setProperty("aws.credentials.provider.basic.accesskeyid", "local");
        p.setProperty("aws.credentials.provider.basic.secretkey", "local");
        return p;
    }

    private static DynamoDbSink<String> sink() {
        return DynamoDbSink.<String>builder()
                .setTableName("ConnectorsLoad")
                .setDynamoDbProperties(awsProps())
                .setElementConverter(
                        (value, ctx) ->
                                DynamoDbWriteRequest.builder()
                                        .setType(DynamoDbWriteRequestType.PUT)
                                        .setItem(Map.of("PK", AttributeValue.fromS(value)))
                                        .build())
                .build();
    }

    @Test
    void kinesisSourceAndDynamoDbSinkCompileIntoOneJobGraph() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration sourceConfig = new Configuration();
        KinesisStreamsSource<String> source =
                KinesisStreamsSource.<String>builder()
                        .setStreamArn(
                                "arn:aws:kinesis:us-east-1:000000000000:stream/connectors-load")
                        .setSourceConfig(sourceConfig)
                        .setDeserializationSchema(new SimpleStringSchema())
                        .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "kinesis", Types.STRING)
                .uid("kinesis-source")
                .sinkTo(sink())
                .uid("dynamodb-sink");

        JobGraph graph = env.getStreamGraph().getJobGraph();

        assertThat(graph.getNumberOfVertices()).isGreaterThanOrEqualTo(1);
        assertThat(graph.getVertices())
                .extracting(v -> v.getName())
                .anySatisfy(n -> assertThat(n).contains("kinesis"));
    }

    @Test
    void boundedJobThroughDynamoDbSinkRunsToCompletion() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        // Nothing reaches the sink: its writer (and its SDK v2 client) is created, opened and
        // closed without a request, which proves the connector's SDK classes link on this runtime.
        // (fromData with an empty collection fails inside Flink 1.20's generator, hence the
        // filter.)
        env.fromData(List.of("x"), Types.STRING).filter(v -> false).sinkTo(sink());

        assertThat(env.execute("connectors-load").getJobExecutionResult()).isNotNull();
    }
}
