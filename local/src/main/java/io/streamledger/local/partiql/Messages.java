package io.streamledger.local.partiql;

import io.streamledger.local.spi.ApiException;

/**
 * DynamoDB's own messages for PartiQL requests it refuses (one home for their text), so a client
 * written against AWS sees the same ValidationException here; the guards of the AP16/AP17
 * conditional writes fail with the engine's ordinary ConditionalCheckFailedException.
 */
final class Messages {
    private static final String MALFORMED = "Statement wasn't well formed, can't be processed: ";
    static final String INCOMPLETE_KEY =
            "Where clause does not contain a mandatory equality on all key attributes";
    static final String PARAMETER_COUNT =
            "Number of parameters in request and statement don't match.";
    static final String DUPLICATE_ITEM = "Duplicate primary key exists in table";
    static final String NOT_ON_INDEX = "This operation is not supported on an index";
    static final String ALIAS = "Aliasing is not supported";
    static final String ONLY_SET_AND_REMOVE =
            "Only SET and REMOVE are supported in update expressions at this time";
    static final String INSERT_MULTIPLE =
            "Unsupported operation: Inserting multiple items in a single statement is not"
                    + " supported, use \"INSERT INTO tableName VALUE item\" instead";
    static final String INSERT_NOT_TUPLE =
            "Unsupported format in item expression. Please use struct format {...} to express"
                    + " item values for insert statement.";
    static final String RETURNING_IN_INSERT = "RETURNING is not supported in INSERT";
    static final String EMPTY_BAG = "Empty bags are not supported";
    static final String BAG_TYPES =
            "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags";
    static final String SINGLE_SOURCE = "Only select from a single table or index is supported.";
    static final String EXISTS_OUTSIDE_TRANSACTION =
            "EXISTS can only be used in ExecuteTransaction write requests.";
    static final String MISSING_WITHOUT_IS = "MISSING must be compared using IS operator";
    static final String STAR_AND_OTHERS =
            "Other attributes should not be present in the projection when '*' is used.";
    static final String CONSISTENT_READ_ON_GSI =
            "Strongly consistent read is not supported on Global Secondary Indexes";
    static final String INVALID_NEXT_TOKEN = "Invalid NextToken";
    static final String NEXT_TOKEN_MISMATCH = "NextToken does not match request";
    static final String TOO_MANY_READS = "Too many decomposed read operations for a given query.";
    static final String ORDER_BY_WITHOUT_WHERE =
            "Must have WHERE clause in the statement when using ORDER BY clause.";
    static final String ORDER_BY_WITHOUT_HASH =
            "Must have at least one non-optional hash key condition in WHERE clause when using"
                    + " ORDER BY clause.";
    static final String BATCH_EMPTY_STATEMENT = "The statement was empty.";
    static final String BATCH_MIXED =
            "Read and write requests together in the same batch is not supported.";
    static final String BATCH_SELECT_NOT_SINGLE = "Only single item select is supported";
    static final String DUPLICATE_KEYS = "Provided list of item keys contains duplicates";
    static final String TRANSACTION_EMPTY_STATEMENT =
            "ExecutePartiQLTransaction can not have empty statement.";
    static final String TRANSACTION_MIXED =
            "ExecuteTransaction API does not support both read and write operations in the same"
                    + " request.";
    static final String TRANSACTION_SELECT_KEY =
            "Select statements within ExecuteTransaction must specify the primary key in the where"
                    + " clause.";
    static final String TRANSACTION_SELECT_INDEX =
            "Reads on indices are not supported within transactions.";
    static final String TRANSACTION_EXISTS_KEY =
            "EXISTS() must contain a single item read with additional condition";
    static final String TRANSACTION_INDEX =
            "Operations on indices are not supported in transactions";
    static final String TRANSACTION_UNSUPPORTED = "Unsupported operation in transaction.";

    private Messages() {}

    static ApiException validation(String message) {
        return ApiException.validation(message);
    }

    /** The syntax error DynamoDB answers with the statement it could not parse. */
    static ApiException malformed(String statement) {
        return ApiException.validation(MALFORMED + statement);
    }

    static ApiException unsupportedClause(String clause, Lexer.Token at) {
        return ApiException.validation("Unsupported clause: " + clause + " at " + at.position());
    }

    static ApiException unrecognizedFunction(String name) {
        return ApiException.validation("Unrecognized function: " + name);
    }

    static ApiException keyTypeMismatch(String attribute) {
        return ApiException.validation(
                "Key attribute's data type should match its data type in table's schema: Key "
                        + attribute);
    }

    static ApiException keyAbsent(String attribute) {
        return ApiException.validation(
                "Key attribute should be present in the item: Key " + attribute);
    }

    static ApiException duplicateProjection(String name) {
        return ApiException.validation("Duplicate identifiers in select clause: " + name);
    }

    static ApiException duplicateTupleKey(String key) {
        return ApiException.validation("Duplicate keys in tuple. Key: " + key);
    }

    static ApiException returningInDelete(String returning) {
        return ApiException.validation(
                "Invalid returning clause: RETURNING "
                        + returning
                        + ". Only RETURNING ALL OLD * is allowed in DELETE statements.");
    }

    static ApiException orderByNotKey(String attribute) {
        return ApiException.validation(
                "Variable reference "
                        + attribute
                        + " in ORDER BY clause must be part of the primary key");
    }

    static ApiException setFunctionArguments(String function) {
        return ApiException.validation(function + " must have exactly two arguments");
    }

    static ApiException setFunctionTarget(String function) {
        return ApiException.validation(
                "The first argument to " + function + " must equal the assignment value");
    }

    static ApiException setFunctionSet(String function) {
        return ApiException.validation(
                "The second argument to " + function + " must be a value with type SET");
    }

    static ApiException unsupportedIsType(String type) {
        return ApiException.validation(
                "Unsupported data type for IS operator: "
                        + type
                        + ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING,"
                        + " NUMERIC, STRUCT, TUPLE, LIST]");
    }

    static ApiException unsupportedConditionOperator(String operator) {
        return ApiException.validation(
                "Unsupported operator in Condition Expression. Operator: " + operator);
    }

    static ApiException duplicateItem() {
        return new ApiException("DuplicateItemException", 400, DUPLICATE_ITEM);
    }

    /** A member of the request model out of its bounds, in the service framework's wording. */
    static ApiException memberLength(String member, String value, String constraint) {
        return ApiException.validation(
                "1 validation error detected: Value '"
                        + value
                        + "' at '"
                        + member
                        + "' failed to satisfy constraint: Member must "
                        + constraint);
    }

    static ApiException memberNull(String member) {
        return ApiException.validation(
                "1 validation error detected: Value null at '"
                        + member
                        + "' failed to satisfy constraint: Member must not be null");
    }
}
