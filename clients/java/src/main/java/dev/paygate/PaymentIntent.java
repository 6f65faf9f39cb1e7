package dev.paygate;

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
}
