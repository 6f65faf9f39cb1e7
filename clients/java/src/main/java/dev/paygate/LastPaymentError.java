package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Optional;

/**
 * Why the last payment attempt of a FAILED intent failed ({@link PaymentIntent#lastPaymentError()}).
 * Immutable; members the API adds later are kept in {@link #toJsonObject()}.
 */
public final class LastPaymentError extends ApiObject {
  /** The payer's bank said no: ask for another card. */
  public static final String CARD_DECLINED = "card_declined";
  /** The gateway refused the request. */
  public static final String GATEWAY_REJECTED = "gateway_rejected";

  /** The documented values of {@link #declineCode()} (more may be added later). */
  public static final java.util.List<String> DECLINE_CODES =
      java.util.List.of(
          "insufficient_funds",
          "expired_card",
          "incorrect_cvc",
          "incorrect_number",
          "do_not_honor",
          "fraudulent",
          "lost_or_stolen",
          "card_not_supported",
          "currency_not_supported",
          "processing_error",
          "authentication_required",
          "generic_decline");

  private LastPaymentError(JsonObject json) {
    super(json);
  }

  /** Builds one from the {@code last_payment_error} member of an intent. */
  public static LastPaymentError fromJson(JsonObject json) {
    return new LastPaymentError(json);
  }

  /** Stable, to branch on: {@link #CARD_DECLINED} or {@link #GATEWAY_REJECTED}. */
  public String code() {
    return JsonObjects.string(json(), "code");
  }

  /**
   * Why, in one vocabulary for every gateway (one of {@link #DECLINE_CODES}, e.g. {@code
   * insufficient_funds}), or empty when the gateway gave no reason. Treat a value this version does
   * not know like {@code generic_decline}.
   */
  public Optional<String> declineCode() {
    return Optional.ofNullable(JsonObjects.string(json(), "decline_code"));
  }

  /** The gateway's own code for the decline, unchanged (Stripe {@code insufficient_funds}, Adyen {@code 12}), or empty. */
  public Optional<String> gatewayCode() {
    return Optional.ofNullable(JsonObjects.string(json(), "gateway_code"));
  }

  /** A human-readable explanation, safe to show to the payer. */
  public String message() {
    return JsonObjects.string(json(), "message");
  }
}
