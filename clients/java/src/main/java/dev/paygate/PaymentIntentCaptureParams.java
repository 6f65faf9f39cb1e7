package dev.paygate;

import com.google.gson.JsonObject;

/** Body of {@code POST /v1/payment-intents/{id}/capture}: all that is capturable, or an amount. */
public final class PaymentIntentCaptureParams {
  private final Long amountMinor;

  private PaymentIntentCaptureParams(Long amountMinor) {
    this.amountMinor = amountMinor;
  }

  /** Captures all of {@code amountCapturableMinor()}. */
  public static PaymentIntentCaptureParams all() {
    return new PaymentIntentCaptureParams(null);
  }

  /** Captures this much, in minor units: at most {@code amountCapturableMinor()}; the rest is released. */
  public static PaymentIntentCaptureParams amountMinor(long amountMinor) {
    return new PaymentIntentCaptureParams(amountMinor);
  }

  JsonObject toJson() {
    JsonObject body = new JsonObject();
    if (amountMinor != null) body.addProperty("amount_minor", amountMinor);
    return body;
  }
}
