package io.streamledger.savepoints.testing;

import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.Transport;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** DynamoDB Streams records of Ledger items as the Streams connector hands them to the job. */
public final class StreamRecords {

    private StreamRecords() {}

    public static RawChange modify(Map<String, AttributeValue> item, long seq, long createdMillis) {
        byte[] data =
                TestRecords.streamsRecord("MODIFY", item, seq, createdMillis, "NEW_IMAGE")
                        .getBytes(StandardCharsets.UTF_8);
        return new RawChange(
                Transport.DYNAMODB_STREAMS.name(),
                "arn:test-stream",
                "shardId-1",
                String.format("%021d", seq),
                createdMillis,
                data);
    }
}
