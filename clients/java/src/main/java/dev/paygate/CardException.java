package dev.paygate;

import com.google.gson.JsonElement;
import java.util.Optional;

/**
 * Thrown on 402 {@code card_declined} or {@code gateway_rejected}; {@link #paymentIntent()} is the
 * failed intent, whose {@link PaymentIntent#lastPaymentError()} says why.
 */
public class CardException extends ApiException {
  private static final long serialVersionUID = 1L;

  CardException(ApiError error) {
    super(error);
  }

  /** The failed intent the problem document carries; empty when it carries none. */
  public Optional<PaymentIntent> paymentIntent() {
    JsonElement intent = problem().get("payment_intent");
    return intent != null && intent.isJsonObject()
        ? Optional.of(PaymentIntent.fromJson(intent.getAsJsonObject()))
        : Optional.empty();
  }
}
