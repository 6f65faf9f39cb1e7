package dev.paygate;

/** Thrown on 402 {@code card_declined} or {@code gateway_rejected}; the failed intent is in {@code problem().get("payment_intent")}. */
public class CardException extends ApiException {
  private static final long serialVersionUID = 1L;

  CardException(ApiError error) {
    super(error);
  }
}
