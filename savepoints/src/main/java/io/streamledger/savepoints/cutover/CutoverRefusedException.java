package io.streamledger.savepoints.cutover;

/**
 * The alias was not moved (CS09 step 7): the proof failed or does not match, or the alias is not at
 * the expected version. The message says which; nothing was written.
 */
public final class CutoverRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CutoverRefusedException(String message) {
        super(message);
    }
}
