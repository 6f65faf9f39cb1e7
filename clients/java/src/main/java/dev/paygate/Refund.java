// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Map;

/**
 * A refund of part or all of a SUCCEEDED payment intent. Immutable; members the API adds later are
 * kept in {@link #toJsonObject()}.
 */
public final class Refund extends ApiResource {
  public static final String STATUS_PENDING = "PENDING";
  public static final String STATUS_SUCCEEDED = "SUCCEEDED";
  public static final String STATUS_FAILED = "FAILED";

  Refund(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of an event. */
  public static Refund fromJson(JsonObject json) {
    return new Refund(json, null);
  }

  /** Identifier with prefix pi_. */
  public String paymentIntentId() {
    return JsonObjects.string(json(), "payment_intent_id");
  }

  /** An integer amount in minor units of the currency, never a float. */
  public long amountMinor() {
    return JsonObjects.integer(json(), "amount_minor");
  }

  /** ISO 4217 code, upper case (the intent currency). */
  public String currency() {
    return JsonObjects.string(json(), "currency");
  }

  /** One of {@link #STATUS_PENDING}, {@link #STATUS_SUCCEEDED}, {@link #STATUS_FAILED}. */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
  public Map<String, String> metadata() {
    return JsonObjects.stringMap(json(), "metadata");
  }

  /** False for test data. */
  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  public long version() {
    return JsonObjects.integer(json(), "version");
  }

  /** ISO 8601 UTC instant. */
  public String createdAt() {
    return JsonObjects.string(json(), "created_at");
  }
}
