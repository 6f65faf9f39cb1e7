package dev.paygate;

import java.util.Optional;

/** What the HTTP response of a resource said beyond its body. */
public record ResponseInfo(int statusCode, String requestIdOrNull, String idempotencyKeyOrNull, boolean replayed) {
  /** {@code X-Request-Id} of the response. */
  public Optional<String> requestId() {
    return Optional.ofNullable(requestIdOrNull);
  }

  /** The Idempotency-Key sent (the one generated when none was given); persist it with your order. */
  public Optional<String> idempotencyKey() {
    return Optional.ofNullable(idempotencyKeyOrNull);
  }
}
