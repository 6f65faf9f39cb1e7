package dev.paygate;

/** Thrown on 429 {@code rate_limited} once GET retries are used up (a POST is never retried). */
public class RateLimitException extends ApiException {
  private static final long serialVersionUID = 1L;

  RateLimitException(ApiError error) {
    super(error);
  }
}
