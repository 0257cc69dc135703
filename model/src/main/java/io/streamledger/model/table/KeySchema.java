package io.streamledger.model.table;

import java.util.Objects;

/**
 * Base primary key of a table: partition and sort attribute names, both DynamoDB type {@code S}
 * (every IDX key is a string).
 *
 * @param partitionKey e.g. {@code PK}
 * @param sortKey e.g. {@code SK}
 */
public record KeySchema(String partitionKey, String sortKey) {
    /** The {@code PK}/{@code SK} schema every bounded-context table uses. */
    public static final KeySchema PK_SK = new KeySchema(Attr.PK, Attr.SK);

    /** Attribute type of both key attributes. */
    public static final String ATTRIBUTE_TYPE = "S";

    public KeySchema {
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(sortKey, "sortKey");
    }
}
