package dev.paygate;

import java.util.Optional;

/** Per-request options: the Idempotency-Key of a create (default: a new random UUID v4). */
public final class RequestOptions {
  private static final RequestOptions NONE = new RequestOptions(null);
  private final String idempotencyKey;

  private RequestOptions(String idempotencyKey) {
    this.idempotencyKey = idempotencyKey;
  }

  public static RequestOptions none() {
    return NONE;
  }

  /** Your key for this operation, persisted with your order before the call. */
  public static RequestOptions idempotencyKey(String idempotencyKey) {
    return new RequestOptions(idempotencyKey);
  }

  public Optional<String> idempotencyKey() {
    return Optional.ofNullable(idempotencyKey);
  }
}
