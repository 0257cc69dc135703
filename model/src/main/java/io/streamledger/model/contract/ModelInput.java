package io.streamledger.model.contract;

/**
 * A capacity-model input that must also appear in an AP row's text, so the model's constants and
 * the contract cannot drift apart.
 *
 * @param accessPattern AP id whose row states the input
 * @param field which AP field states it
 * @param fragment the text the field must contain as a whole token, built from the constant
 * @param constant the constant's name in {@link CapacityModel}
 */
public record ModelInput(String accessPattern, ApField field, String fragment, String constant) {
    /** The AP fields that carry capacity inputs. */
    public enum ApField {
        CARDINALITY_AND_SIZE,
        PEAK_RATE;

        String of(AccessPatternRow row) {
            return this == CARDINALITY_AND_SIZE ? row.cardinalityAndSize() : row.peakRate();
        }
    }
}
