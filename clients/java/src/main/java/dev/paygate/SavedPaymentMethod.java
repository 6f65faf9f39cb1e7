// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
package dev.paygate;

import com.google.gson.JsonObject;

/**
 * A customer's payment method, saved at a gateway with the payer's consent. Immutable; members the
 * API adds later are kept in {@link #toJsonObject()}.
 */
public final class SavedPaymentMethod extends ApiResource {
  public static final String STATUS_ACTIVE = "active";
  public static final String STATUS_DETACHED = "detached";

  SavedPaymentMethod(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of an event. */
  public static SavedPaymentMethod fromJson(JsonObject json) {
    return new SavedPaymentMethod(json, null);
  }

  /** Identifier with prefix cus_. */
  public String customerId() {
    return JsonObjects.string(json(), "customer_id");
  }

  /** The gateway account that keeps the method; only it can charge it. */
  public String gatewayId() {
    return JsonObjects.string(json(), "gateway_id");
  }

  /**
   * Active: it can be charged; detached: removed, here and at the gateway, for good. One of {@link
   * #STATUS_ACTIVE}, {@link #STATUS_DETACHED}.
   */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  /** False for test data. */
  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  /** ISO 8601 UTC instant. */
  public String createdAt() {
    return JsonObjects.string(json(), "created_at");
  }

  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  public long version() {
    return JsonObjects.integer(json(), "version");
  }
}
