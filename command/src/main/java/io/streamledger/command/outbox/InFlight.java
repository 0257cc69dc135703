package io.streamledger.command.outbox;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An AP16 event this relay claimed (step 2): what its completion and re-queue are conditioned on
 * (owner and attempt) and the item as the claim left it.
 */
public record InFlight(String eventId, int attempt, Map<String, AttributeValue> item) {}
