package dev.paygate;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;
import java.util.Optional;

/** A payment intent. Money is in minor units, as a {@code long}. */
public final class PaymentIntent extends ApiResource {
  PaymentIntent(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of a payment intent event. */
  public static PaymentIntent fromJson(JsonObject json) {
    return new PaymentIntent(json, null);
  }

  public long amountMinor() {
    return JsonObjects.integer(json(), "amount_minor");
  }

  public long amountRefundedMinor() {
    return JsonObjects.integer(json(), "amount_refunded_minor");
  }

  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  public long version() {
    return JsonObjects.integer(json(), "version");
  }

  public String currency() {
    return JsonObjects.string(json(), "currency");
  }

  /** CREATED, REQUIRES_ACTION, PROCESSING, SUCCEEDED, FAILED, CANCELED or EXPIRED. */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  public String gatewayId() {
    return JsonObjects.string(json(), "gateway_id");
  }

  public Optional<String> redirectUrl() {
    return Optional.ofNullable(JsonObjects.string(json(), "redirect_url"));
  }

  /** Where the gateway sends the payer back after a redirect, when the intent was created with one. */
  public Optional<String> returnUrl() {
    return Optional.ofNullable(JsonObjects.string(json(), "return_url"));
  }

  /** Why the last payment attempt failed; empty unless the status is FAILED. */
  public Optional<LastPaymentError> lastPaymentError() {
    JsonElement value = json().get("last_payment_error");
    return value != null && value.isJsonObject()
        ? Optional.of(LastPaymentError.fromJson(value.getAsJsonObject()))
        : Optional.empty();
  }

  /** Present when read with a secret key; hand it to the browser component, never log it. */
  public Optional<String> clientSecret() {
    return Optional.ofNullable(JsonObjects.string(json(), "client_secret"));
  }

  public Map<String, String> metadata() {
    return JsonObjects.stringMap(json(), "metadata");
  }

  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  public String createdAt() {
    return JsonObjects.string(json(), "created_at");
  }

  /** When a CREATED or REQUIRES_ACTION intent expires (ISO 8601). */
  public String expiresAt() {
    return JsonObjects.string(json(), "expires_at");
  }
}
