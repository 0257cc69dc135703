package io.streamledger.savepoints.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** CS09 step 4 writes: 25 per call, only the unprocessed remainder is retried, rounds bounded. */
class BatchPutWriterTest {

    /** In-process fake of the one call the writer makes; leaves {@code unprocessed} per round. */
    private static final class FakeDdb implements DynamoDbClient {
        final List<Integer> sizes = new ArrayList<>();
        final List<Integer> unprocessedPerRound;
        int round;

        FakeDdb(List<Integer> unprocessedPerRound) {
            this.unprocessedPerRound = unprocessedPerRound;
        }

        @Override
        public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest r) {
            List<WriteRequest> sent = r.requestItems().get("T");
            sizes.add(sent.size());
            int left = round < unprocessedPerRound.size() ? unprocessedPerRound.get(round) : 0;
            round++;
            return BatchWriteItemResponse.builder()
                    .unprocessedItems(left == 0 ? Map.of() : Map.of("T", sent.subList(0, left)))
                    .build();
        }

        @Override
        public String serviceName() {
            return "fake";
        }

        @Override
        public void close() {}
    }

    private static Map<String, AttributeValue> item(int i) {
        return Map.of("PK", AttributeValue.fromS("k" + i), "SK", AttributeValue.fromS("s"));
    }

    @Test
    void sendsAtMost25AndRetriesOnlyTheRemainder() {
        FakeDdb ddb = new FakeDdb(List.of(3, 1));
        BatchPutWriter w = new BatchPutWriter(ddb, 5, 1);
        for (int i = 0; i < 30; i++) {
            w.put("T", item(i));
        }
        w.flush();
        assertThat(ddb.sizes).containsExactly(25, 3, 1, 5);
        assertThat(w.written()).isEqualTo(30);
        assertThat(w.retriedItems()).isEqualTo(4);
    }

    @Test
    void givesUpAfterTheBoundedRoundsWithACount() {
        FakeDdb ddb = new FakeDdb(List.of(2, 2, 2, 2));
        BatchPutWriter w = new BatchPutWriter(ddb, 3, 1);
        w.put("T", item(1));
        w.put("T", item(2));
        assertThatThrownBy(w::flush)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("2 items to T still unprocessed after 3 BatchWriteItem rounds");
        assertThat(w.written()).isZero();
    }
}
