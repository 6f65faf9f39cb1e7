package dev.paygate;

/** Thrown by {@link Webhook#constructEvent} when a correctly signed body is not an event envelope. */
public class InvalidPayloadException extends PaygateException {
  private static final long serialVersionUID = 1L;

  InvalidPayloadException(String message) {
    super(message);
  }
}
