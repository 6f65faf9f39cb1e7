package dev.paygate;

/** Thrown on 409 {@code idempotency_key_reuse} (another body) or {@code idempotency_key_in_flight} (wait, then repeat with the same key). */
public class IdempotencyException extends ApiException {
  private static final long serialVersionUID = 1L;

  IdempotencyException(ApiError error) {
    super(error);
  }
}
