package dev.paygate;

import com.google.gson.JsonObject;

/**
 * Body of {@code POST /v1/payment-intents/{id}/confirm}: the token from the gateway's hosted fields,
 * or a saved payment method of the intent's customer (charged with or without the payer).
 */
public final class PaymentIntentConfirmParams {
  private final String paymentMethodToken;
  private final String savedPaymentMethodId;
  private final boolean offSession;

  private PaymentIntentConfirmParams(String paymentMethodToken, String savedPaymentMethodId, boolean offSession) {
    this.paymentMethodToken = paymentMethodToken;
    this.savedPaymentMethodId = savedPaymentMethodId;
    this.offSession = offSession;
  }

  public static PaymentIntentConfirmParams withToken(String paymentMethodToken) {
    return new PaymentIntentConfirmParams(paymentMethodToken, null, false);
  }

  /** A saved method ({@code spm_}) of the intent's customer, charged with the payer present. */
  public static PaymentIntentConfirmParams withSavedPaymentMethod(String savedPaymentMethodId) {
    return new PaymentIntentConfirmParams(null, savedPaymentMethodId, false);
  }

  /**
   * A saved method charged without the payer (a renewal, a top-up): a gateway that wants the payer
   * fails the payment with decline code {@code authentication_required}.
   */
  public static PaymentIntentConfirmParams offSession(String savedPaymentMethodId) {
    return new PaymentIntentConfirmParams(null, savedPaymentMethodId, true);
  }

  public static PaymentIntentConfirmParams empty() {
    return new PaymentIntentConfirmParams(null, null, false);
  }

  JsonObject toJson() {
    JsonObject body = new JsonObject();
    if (paymentMethodToken != null) body.addProperty("payment_method_token", paymentMethodToken);
    if (savedPaymentMethodId != null) body.addProperty("saved_payment_method_id", savedPaymentMethodId);
    if (offSession) body.addProperty("off_session", true);
    return body;
  }
}
