package dev.paygate;

/** Thrown on 409 {@code invalid_state_transition}, e.g. a cancel after success. */
public class InvalidStateException extends ApiException {
  private static final long serialVersionUID = 1L;

  InvalidStateException(ApiError error) {
    super(error);
  }
}
