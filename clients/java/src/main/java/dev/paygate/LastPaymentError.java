// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
package dev.paygate;

import com.google.gson.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * Why the last payment attempt of a FAILED intent failed. Immutable; members the API adds later are
 * kept in {@link #toJsonObject()}.
 */
public final class LastPaymentError extends ApiObject {
  public static final String CODE_CARD_DECLINED = "card_declined";
  public static final String CODE_GATEWAY_REJECTED = "gateway_rejected";

  /** The documented values of {@link #declineCode()} (more may be added later). */
  public static final List<String> DECLINE_CODES =
      List.of(
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

  /** The same as {@link #CODE_CARD_DECLINED}, by the name it had before the constants were generated. */
  public static final String CARD_DECLINED = CODE_CARD_DECLINED;

  /** The same as {@link #CODE_GATEWAY_REJECTED}, by the name it had before the constants were generated. */
  public static final String GATEWAY_REJECTED = CODE_GATEWAY_REJECTED;

  private LastPaymentError(JsonObject json) {
    super(json);
  }

  /** Builds one from the JSON object of the member that holds it. */
  public static LastPaymentError fromJson(JsonObject json) {
    return new LastPaymentError(json);
  }

  /**
   * Stable, to branch on: card_declined (ask for another card) or gateway_rejected. One of {@link
   * #CODE_CARD_DECLINED}, {@link #CODE_GATEWAY_REJECTED}.
   */
  public String code() {
    return JsonObjects.string(json(), "code");
  }

  /**
   * Why the card was declined, in one vocabulary for every gateway (insufficient_funds,
   * expired_card, incorrect_cvc, incorrect_number, do_not_honor, fraudulent, lost_or_stolen,
   * card_not_supported, currency_not_supported, processing_error, authentication_required,
   * generic_decline), or empty when the gateway gave no reason; treat a value you do not know like
   * generic_decline. One of {@link #DECLINE_CODES} (more may be added later).
   */
  public Optional<String> declineCode() {
    return Optional.ofNullable(JsonObjects.string(json(), "decline_code"));
  }

  /**
   * The gateway's own code for the decline, unchanged (Stripe's decline_code, Adyen's
   * refusalReasonCode), or empty.
   */
  public Optional<String> gatewayCode() {
    return Optional.ofNullable(JsonObjects.string(json(), "gateway_code"));
  }

  /** A human-readable explanation, safe to show to the payer. */
  public String message() {
    return JsonObjects.string(json(), "message");
  }
}
