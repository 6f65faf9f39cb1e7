package dev.paygate;

/** Thrown on 500 {@code internal_error}; a create may be repeated with the same Idempotency-Key. */
public class InternalServerException extends ApiException {
  private static final long serialVersionUID = 1L;

  InternalServerException(ApiError error) {
    super(error);
  }
}
