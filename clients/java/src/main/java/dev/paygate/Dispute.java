package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Optional;

/** A chargeback the gateway reported against one of your payments: open, then WON or LOST. */
public final class Dispute extends ApiResource {
  Dispute(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of a dispute event. */
  public static Dispute fromJson(JsonObject json) {
    return new Dispute(json, null);
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

  /** fraudulent, duplicate, product_not_received, product_unacceptable, subscription_canceled, credit_not_processed, unrecognized or general. */
  public String reason() {
    return JsonObjects.string(json(), "reason");
  }

  /** NEEDS_RESPONSE, UNDER_REVIEW, WON or LOST. */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  /** When the gateway must have your evidence (ISO 8601), if it gave a date. */
  public Optional<String> evidenceDueBy() {
    return Optional.ofNullable(JsonObjects.string(json(), "evidence_due_by"));
  }

  public String gatewayId() {
    return JsonObjects.string(json(), "gateway_id");
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

  public String updatedAt() {
    return JsonObjects.string(json(), "updated_at");
  }
}
