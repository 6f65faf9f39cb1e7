package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Map;

/** A refund of part or all of a succeeded payment intent. */
public final class Refund extends ApiResource {
  Refund(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of a refund event. */
  public static Refund fromJson(JsonObject json) {
    return new Refund(json, null);
  }

  public String paymentIntentId() {
    return JsonObjects.string(json(), "payment_intent_id");
  }

  public long amountMinor() {
    return JsonObjects.integer(json(), "amount_minor");
  }

  public String currency() {
    return JsonObjects.string(json(), "currency");
  }

  /** PENDING, SUCCEEDED or FAILED. */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  public Map<String, String> metadata() {
    return JsonObjects.stringMap(json(), "metadata");
  }

  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  public long version() {
    return JsonObjects.integer(json(), "version");
  }

  public String createdAt() {
    return JsonObjects.string(json(), "created_at");
  }
}
