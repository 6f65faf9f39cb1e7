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

  /** The gateway's own decline reason (e.g. {@code insufficient_funds}) when it gives one: log it, do not depend on it. */
  public Optional<String> declineCode() {
    return Optional.ofNullable(JsonObjects.string(json(), "decline_code"));
  }

  /** A human-readable explanation, safe to show to the payer. */
  public String message() {
    return JsonObjects.string(json(), "message");
  }
}
