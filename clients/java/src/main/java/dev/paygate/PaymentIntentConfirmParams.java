package dev.paygate;

import com.google.gson.JsonObject;

/** Body of {@code POST /v1/payment-intents/{id}/confirm}: the token from the gateway's hosted fields. */
public final class PaymentIntentConfirmParams {
  private final String paymentMethodToken;

  private PaymentIntentConfirmParams(String paymentMethodToken) {
    this.paymentMethodToken = paymentMethodToken;
  }

  public static PaymentIntentConfirmParams withToken(String paymentMethodToken) {
    return new PaymentIntentConfirmParams(paymentMethodToken);
  }

  public static PaymentIntentConfirmParams empty() {
    return new PaymentIntentConfirmParams(null);
  }

  JsonObject toJson() {
    JsonObject body = new JsonObject();
    if (paymentMethodToken != null) body.addProperty("payment_method_token", paymentMethodToken);
    return body;
  }
}
