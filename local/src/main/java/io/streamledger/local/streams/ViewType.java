package io.streamledger.local.streams;

import io.streamledger.local.spi.ApiException;

/** StreamViewType: which images a stream record carries (CS07). */
public enum ViewType {
    KEYS_ONLY(false, false),
    NEW_IMAGE(true, false),
    OLD_IMAGE(false, true),
    NEW_AND_OLD_IMAGES(true, true);

    final boolean newImage;
    final boolean oldImage;

    ViewType(boolean newImage, boolean oldImage) {
        this.newImage = newImage;
        this.oldImage = oldImage;
    }

    public static ViewType parse(String s) {
        for (ViewType v : values()) {
            if (v.name().equals(s)) {
                return v;
            }
        }
        throw ApiException.validation(
                "1 validation error detected: Value '"
                        + s
                        + "' at 'streamSpecification.streamViewType' failed to satisfy constraint:"
                        + " Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE,"
                        + " NEW_AND_OLD_IMAGES, KEYS_ONLY]");
    }
}
