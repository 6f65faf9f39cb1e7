package dev.paygate;

import java.util.Optional;

/**
 * Thrown when no HTTP response arrived (refused, reset, time-out), after any retries. For a create,
 * repeat the same call with {@link #idempotencyKey()}; after a confirm, retrieve the intent instead.
 */
public class ConnectionException extends PaygateException {
  private static final long serialVersionUID = 1L;
  private final String idempotencyKey;
  private final boolean mayHaveBeenSent;

  ConnectionException(String message, Throwable cause, String idempotencyKey, boolean mayHaveBeenSent) {
    super(message, cause);
    this.idempotencyKey = idempotencyKey;
    this.mayHaveBeenSent = mayHaveBeenSent;
  }

  /** The Idempotency-Key sent, so the caller can repeat the same POST safely. */
  public Optional<String> idempotencyKey() {
    return Optional.ofNullable(idempotencyKey);
  }

  /** True when the request may have reached the service (its delivery is unknown). */
  public boolean mayHaveBeenSent() {
    return mayHaveBeenSent;
  }
}
