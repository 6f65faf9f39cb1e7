// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Optional;

/**
 * One ledger line: a PAYMENT, a REFUND, a DISPUTE or a DISPUTE_REVERSAL. Immutable; members the API
 * adds later are kept in {@link #toJsonObject()}.
 */
public final class Transaction extends ApiResource {
  public static final String TYPE_PAYMENT = "PAYMENT";
  public static final String TYPE_REFUND = "REFUND";
  public static final String TYPE_DISPUTE = "DISPUTE";
  public static final String TYPE_DISPUTE_REVERSAL = "DISPUTE_REVERSAL";

  public static final String STATUS_PENDING = "PENDING";
  public static final String STATUS_APPROVED = "APPROVED";
  public static final String STATUS_DECLINED = "DECLINED";

  Transaction(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of an event. */
  public static Transaction fromJson(JsonObject json) {
    return new Transaction(json, null);
  }

  /**
   * One of {@link #TYPE_PAYMENT}, {@link #TYPE_REFUND}, {@link #TYPE_DISPUTE}, {@link
   * #TYPE_DISPUTE_REVERSAL}.
   */
  public String type() {
    return JsonObjects.string(json(), "type");
  }

  /** One of {@link #STATUS_PENDING}, {@link #STATUS_APPROVED}, {@link #STATUS_DECLINED}. */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  /** An integer amount in minor units of the currency, never a float. */
  public long amountMinor() {
    return JsonObjects.integer(json(), "amount_minor");
  }

  /** ISO 4217 code, upper case. */
  public String currency() {
    return JsonObjects.string(json(), "currency");
  }

  /** Identifier with prefix pi_. */
  public String paymentIntentId() {
    return JsonObjects.string(json(), "payment_intent_id");
  }

  /** Empty except for REFUND. */
  public Optional<String> refundId() {
    return Optional.ofNullable(JsonObjects.string(json(), "refund_id"));
  }

  public String gatewayId() {
    return JsonObjects.string(json(), "gateway_id");
  }

  /** False for test data. */
  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  /** ISO 8601 UTC instant. */
  public String createdAt() {
    return JsonObjects.string(json(), "created_at");
  }

  /** ISO 8601 UTC instant. */
  public String updatedAt() {
    return JsonObjects.string(json(), "updated_at");
  }
}
