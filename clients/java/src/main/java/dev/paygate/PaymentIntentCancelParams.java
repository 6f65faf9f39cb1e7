package dev.paygate;

import com.google.gson.JsonObject;

/** Body of {@code POST /v1/payment-intents/{id}/cancel}: an optional cancellation reason. */
public final class PaymentIntentCancelParams {
  private final String cancellationReason;

  private PaymentIntentCancelParams(String cancellationReason) {
    this.cancellationReason = cancellationReason;
  }

  public static PaymentIntentCancelParams withReason(String cancellationReason) {
    return new PaymentIntentCancelParams(cancellationReason);
  }

  public static PaymentIntentCancelParams empty() {
    return new PaymentIntentCancelParams(null);
  }

  JsonObject toJson() {
    JsonObject body = new JsonObject();
    if (cancellationReason != null) body.addProperty("cancellation_reason", cancellationReason);
    return body;
  }
}
