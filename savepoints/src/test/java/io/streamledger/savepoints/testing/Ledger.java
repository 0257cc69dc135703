package io.streamledger.savepoints.testing;

import io.streamledger.local.export.LocalTableExports;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.keys.AuthorityKey;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;

/** Writes AP12 authority items into a Ledger table and exports it through the SDK (CS09). */
public final class Ledger {

    private Ledger() {}

    public static void put(
            DynamoDbClient ddb,
            String table,
            AuthorityKey k,
            long v,
            String posted,
            String reserved) {
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item =
                new HashMap<>();
        ExportFixture.authority(k, v, posted, reserved).forEach((n, a) -> item.put(n, sdk(a)));
        ddb.putItem(b -> b.tableName(table).item(item));
    }

    static software.amazon.awssdk.services.dynamodb.model.AttributeValue sdk(AttributeValue a) {
        if (a instanceof AttributeValue.S s) {
            return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(s.value());
        }
        if (a instanceof AttributeValue.N n) {
            return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(n.text());
        }
        throw new IllegalArgumentException("unsupported in tests: " + a);
    }

    /** ExportTableToPointInTime through the SDK; returns the local export directory. */
    public static Path export(DynamoDbClient ddb, String table, Path exportRoot) throws Exception {
        ExportDescription d =
                ddb.exportTableToPointInTime(
                                b ->
                                        b.tableArn(LocalTableExports.tableArn(table))
                                                .s3Bucket("backups")
                                                .s3Prefix("ledger"))
                        .exportDescription();
        for (int i = 0; i < 200 && d.exportStatus() == ExportStatus.IN_PROGRESS; i++) {
            Thread.sleep(50);
            String arn = d.exportArn();
            d = ddb.describeExport(b -> b.exportArn(arn)).exportDescription();
        }
        if (d.exportStatus() != ExportStatus.COMPLETED) {
            throw new IllegalStateException(
                    "export ended " + d.exportStatus() + ": " + d.failureMessage());
        }
        String id = d.exportArn().substring(d.exportArn().lastIndexOf('/') + 1);
        return exportRoot.resolve("backups").resolve("ledger").resolve("AWSDynamoDB").resolve(id);
    }
}
