package io.streamledger.local.kinesis;

import static io.streamledger.local.kinesis.KinesisRecords.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.testing.Changes;
import io.streamledger.local.testing.FakeTableCatalog;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/** Forwarding of committed changes to kinesis-local in the Kinesis-for-DynamoDB shape (CS06). */
class KinesisStreamingDestinationITCase {
    @RegisterExtension static final KinesisLocalExtension KINESIS = new KinesisLocalExtension();

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00.123Z");

    private KinesisStreamingDestination destination(
            String table, KinesisDestinationOptions.Builder b) {
        FakeTableCatalog catalog = new FakeTableCatalog();
        catalog.createTable(table);
        KinesisStreamingDestination d =
                new KinesisStreamingDestination(
                        b.kinesisEndpoint(KINESIS.kinesis().endpoint()).build());
        d.attach(catalog);
        return d;
    }

    private static ObjectNode request(String table, String arn) {
        return JSON.objectNode().put("TableName", table).put("StreamArn", arn);
    }

    @Test
    void forwardsChangesInTheAwsRecordShapeWithStatusLifecycle() throws Exception {
        String arn = KINESIS.kinesis().createStream("ddb-orders-shape", 2);
        try (KinesisStreamingDestination d =
                destination("Orders", KinesisDestinationOptions.builder())) {
            JsonNode enabled = d.handle(KinesisStreamingDestination.ENABLE, request("Orders", arn));
            assertThat(enabled.get("DestinationStatus").asText()).isEqualTo("ENABLING");
            JsonNode described =
                    d.handle(
                            KinesisStreamingDestination.DESCRIBE,
                            JSON.objectNode().put("TableName", "Orders"));
            assertThat(
                            described
                                    .get("KinesisDataStreamDestinations")
                                    .get(0)
                                    .get("DestinationStatus")
                                    .asText())
                    .isEqualTo("ACTIVE");

            d.onCommit(List.of(Changes.insert("Orders", "o1", T0)));
            d.onCommit(List.of(Changes.modify("Orders", "o1", 1, 2, T0)));
            d.onCommit(List.of(Changes.ttlDelete("Orders", "o2", T0)));
            assertThat(d.flush(Duration.ofSeconds(20))).isTrue();

            List<JsonNode> records = readAll(KINESIS.kinesis().client(), "ddb-orders-shape");
            assertThat(records).hasSize(3);
            JsonNode modify =
                    records.stream()
                            .filter(r -> r.get("eventName").asText().equals("MODIFY"))
                            .findFirst()
                            .orElseThrow();
            assertThat(modify.get("recordFormat").asText()).isEqualTo("application/json");
            assertThat(modify.get("eventSource").asText()).isEqualTo("aws:dynamodb");
            assertThat(modify.get("tableName").asText()).isEqualTo("Orders");
            assertThat(modify.get("awsRegion").asText()).isEqualTo("us-east-1");
            assertThat(modify.get("userIdentity").isNull()).isTrue();
            JsonNode ddb = modify.get("dynamodb");
            assertThat(ddb.get("ApproximateCreationDateTime").asLong())
                    .isEqualTo(T0.toEpochMilli());
            assertThat(ddb.get("ApproximateCreationDateTimePrecision").asText())
                    .isEqualTo("MILLISECOND");
            assertThat(ddb.get("OldImage").get("version").get("N").asText()).isEqualTo("1");
            assertThat(ddb.get("NewImage").get("version").get("N").asText()).isEqualTo("2");
            assertThat(ddb.get("Keys").get("PK").get("S").asText()).isEqualTo("o1");
            assertThat(ddb.get("SizeBytes").asLong()).isPositive();
            JsonNode ttl =
                    records.stream()
                            .filter(r -> r.get("eventName").asText().equals("REMOVE"))
                            .findFirst()
                            .orElseThrow();
            assertThat(ttl.get("userIdentity").get("type").asText()).isEqualTo("Service");
            assertThat(ttl.get("userIdentity").get("principalId").asText())
                    .isEqualTo("dynamodb.amazonaws.com");

            JsonNode disabled =
                    d.handle(KinesisStreamingDestination.DISABLE, request("Orders", arn));
            assertThat(disabled.get("DestinationStatus").asText()).isEqualTo("DISABLING");
            assertThat(
                            d.handle(
                                            KinesisStreamingDestination.DESCRIBE,
                                            JSON.objectNode().put("TableName", "Orders"))
                                    .get("KinesisDataStreamDestinations")
                                    .get(0)
                                    .get("DestinationStatus")
                                    .asText())
                    .isEqualTo("DISABLED");
            d.onCommit(List.of(Changes.insert("Orders", "o3", T0)));
            assertThat(d.flush(Duration.ofSeconds(5))).isTrue();
            assertThat(readAll(KINESIS.kinesis().client(), "ddb-orders-shape")).hasSize(3);
        }
    }

    @Test
    void injectsDuplicatesAndReordersWithTheConfiguredProbabilities() throws Exception {
        String arn = KINESIS.kinesis().createStream("ddb-orders-chaos", 1);
        try (KinesisStreamingDestination d =
                destination(
                        "Orders",
                        KinesisDestinationOptions.builder()
                                .duplicateProbability(0.3)
                                .reorderProbability(0.3)
                                .seed(11))) {
            d.handle(KinesisStreamingDestination.ENABLE, request("Orders", arn));
            List<ItemChange> changes = new ArrayList<>();
            for (int v = 1; v <= 50; v++) {
                changes.add(Changes.modify("Orders", "o1", v, v + 1, T0));
            }
            d.onCommit(changes); // one commit → one batch, so injection applies within it
            assertThat(d.flush(Duration.ofSeconds(20))).isTrue();
            List<JsonNode> records = readAll(KINESIS.kinesis().client(), "ddb-orders-chaos");
            assertThat(d.duplicatedCount()).isPositive();
            assertThat(d.reorderedCount()).isPositive();
            assertThat(records).hasSize(50 + (int) d.duplicatedCount());
            List<Long> versions = new ArrayList<>();
            Set<String> eventIds = new HashSet<>();
            for (JsonNode r : records) {
                versions.add(r.get("dynamodb").get("NewImage").get("version").get("N").asLong());
                eventIds.add(r.get("eventID").asText());
            }
            assertThat(eventIds)
                    .hasSize(50); // duplicates repeat the eventID, so consumers can dedupe
            assertThat(new HashSet<>(versions)).hasSize(50);
            assertThat(versions).isNotEqualTo(versions.stream().sorted().toList());
            assertThat(d.failedCount()).isZero();
        }
    }

    @Test
    void aLongKinesisOutageDelaysChangesButLosesNone() throws Exception {
        String arn = KINESIS.kinesis().createStream("ddb-orders-outage", 1);
        AtomicInteger failuresLeft = new AtomicInteger(25); // beyond any fixed attempt budget
        KinesisClient real = KINESIS.kinesis().client();
        KinesisClient failing =
                (KinesisClient)
                        Proxy.newProxyInstance(
                                KinesisClient.class.getClassLoader(),
                                new Class<?>[] {KinesisClient.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("putRecords")
                                            && failuresLeft.getAndDecrement() > 0) {
                                        throw SdkClientException.create("injected outage");
                                    }
                                    try {
                                        return method.invoke(real, args);
                                    } catch (InvocationTargetException e) {
                                        throw e.getCause();
                                    }
                                });
        FakeTableCatalog catalog = new FakeTableCatalog();
        catalog.createTable("Orders");
        try (KinesisStreamingDestination d =
                new KinesisStreamingDestination(
                        KinesisDestinationOptions.builder()
                                .kinesisClient(() -> failing)
                                .retryBackoff(Duration.ofMillis(1))
                                .build())) {
            d.attach(catalog);
            d.handle(KinesisStreamingDestination.ENABLE, request("Orders", arn));
            d.onCommit(List.of(Changes.insert("Orders", "o1", T0)));
            d.onCommit(List.of(Changes.modify("Orders", "o1", 1, 2, T0)));

            assertThat(d.flush(Duration.ofSeconds(20))).isTrue();
            assertThat(failuresLeft.get()).as("every injected failure was hit").isNegative();
            assertThat(d.failedCount()).isZero();
            assertThat(readAll(real, "ddb-orders-outage")).hasSize(2);
        }
    }

    @Test
    void rejectsUnknownTablesAndStreams() {
        try (KinesisStreamingDestination d =
                destination("Orders", KinesisDestinationOptions.builder())) {
            assertThatThrownBy(
                            () ->
                                    d.handle(
                                            KinesisStreamingDestination.ENABLE,
                                            request("Nope", KinesisLocal.streamArn("x"))))
                    .extracting(e -> ((ApiException) e).type())
                    .isEqualTo("ResourceNotFoundException");
            assertThatThrownBy(
                            () ->
                                    d.handle(
                                            KinesisStreamingDestination.ENABLE,
                                            request(
                                                    "Orders",
                                                    KinesisLocal.streamArn("not-created"))))
                    .extracting(e -> ((ApiException) e).type())
                    .isEqualTo("ValidationException");
            assertThatThrownBy(
                            () ->
                                    d.handle(
                                            KinesisStreamingDestination.ENABLE,
                                            request("Orders", "stream/x")))
                    .extracting(e -> ((ApiException) e).type())
                    .isEqualTo("ValidationException");
        }
    }
}
