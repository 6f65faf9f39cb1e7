// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Optional;

/**
 * A chargeback the gateway reported against a payment: open, then WON or LOST. Immutable; members
 * the API adds later are kept in {@link #toJsonObject()}.
 */
public final class Dispute extends ApiResource {
  public static final String REASON_FRAUDULENT = "fraudulent";
  public static final String REASON_DUPLICATE = "duplicate";
  public static final String REASON_PRODUCT_NOT_RECEIVED = "product_not_received";
  public static final String REASON_PRODUCT_UNACCEPTABLE = "product_unacceptable";
  public static final String REASON_SUBSCRIPTION_CANCELED = "subscription_canceled";
  public static final String REASON_CREDIT_NOT_PROCESSED = "credit_not_processed";
  public static final String REASON_UNRECOGNIZED = "unrecognized";
  public static final String REASON_GENERAL = "general";

  public static final String STATUS_NEEDS_RESPONSE = "NEEDS_RESPONSE";
  public static final String STATUS_UNDER_REVIEW = "UNDER_REVIEW";
  public static final String STATUS_WON = "WON";
  public static final String STATUS_LOST = "LOST";

  Dispute(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of an event. */
  public static Dispute fromJson(JsonObject json) {
    return new Dispute(json, null);
  }

  /** Identifier with prefix pi_. */
  public String paymentIntentId() {
    return JsonObjects.string(json(), "payment_intent_id");
  }

  /** An integer amount in minor units of the currency, never a float. */
  public long amountMinor() {
    return JsonObjects.integer(json(), "amount_minor");
  }

  /** ISO 4217 code, upper case. */
  public String currency() {
    return JsonObjects.string(json(), "currency");
  }

  /**
   * One of {@link #REASON_FRAUDULENT}, {@link #REASON_DUPLICATE}, {@link
   * #REASON_PRODUCT_NOT_RECEIVED}, {@link #REASON_PRODUCT_UNACCEPTABLE}, {@link
   * #REASON_SUBSCRIPTION_CANCELED}, {@link #REASON_CREDIT_NOT_PROCESSED}, {@link
   * #REASON_UNRECOGNIZED}, {@link #REASON_GENERAL}.
   */
  public String reason() {
    return JsonObjects.string(json(), "reason");
  }

  /**
   * One of {@link #STATUS_NEEDS_RESPONSE}, {@link #STATUS_UNDER_REVIEW}, {@link #STATUS_WON},
   * {@link #STATUS_LOST}.
   */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  /** When the gateway must have the merchant’s evidence; empty when it gave no date. */
  public Optional<String> evidenceDueBy() {
    return Optional.ofNullable(JsonObjects.string(json(), "evidence_due_by"));
  }

  public String gatewayId() {
    return JsonObjects.string(json(), "gateway_id");
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

  /** ISO 8601 UTC instant. */
  public String updatedAt() {
    return JsonObjects.string(json(), "updated_at");
  }
}
