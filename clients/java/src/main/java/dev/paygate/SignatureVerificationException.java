package dev.paygate;

/** Thrown by {@link Webhook#constructEvent} when the header is malformed, matches no secret or is stale. */
public class SignatureVerificationException extends PaygateException {
  private static final long serialVersionUID = 1L;

  /** Why a delivery was refused. */
  public enum Reason {
    MALFORMED_HEADER,
    NO_MATCHING_SIGNATURE,
    TIMESTAMP_OUTSIDE_TOLERANCE
  }

  private final Reason reason;

  SignatureVerificationException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
