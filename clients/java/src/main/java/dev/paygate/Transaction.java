package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Optional;

/** One ledger line: a PAYMENT per confirmed intent, a REFUND per refund. */
public final class Transaction extends ApiResource {
  Transaction(JsonObject json) {
    super(json, null);
  }

  /** PAYMENT or REFUND. */
  public String type() {
    return JsonObjects.string(json(), "type");
  }

  /** PENDING, APPROVED or DECLINED. */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  public long amountMinor() {
    return JsonObjects.integer(json(), "amount_minor");
  }

  public String currency() {
    return JsonObjects.string(json(), "currency");
  }

  public String paymentIntentId() {
    return JsonObjects.string(json(), "payment_intent_id");
  }

  public Optional<String> refundId() {
    return Optional.ofNullable(JsonObjects.string(json(), "refund_id"));
  }

  public String gatewayId() {
    return JsonObjects.string(json(), "gateway_id");
  }

  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  public String createdAt() {
    return JsonObjects.string(json(), "created_at");
  }

  /** When the status last changed (a PENDING line settles later). */
  public String updatedAt() {
    return JsonObjects.string(json(), "updated_at");
  }
}
