package dev.paygate;

import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** Body of {@code POST /v1/refunds}: without an amount, all that remains refundable is refunded. */
public final class RefundCreateParams {
  private final JsonObject body;

  private RefundCreateParams(JsonObject body) {
    this.body = body;
  }

  public static Builder builder(String paymentIntentId) {
    return new Builder(paymentIntentId);
  }

  JsonObject toJson() {
    return body.deepCopy();
  }

  public static final class Builder {
    private final String paymentIntentId;
    private Long amountMinor;
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private boolean metadataSet;

    private Builder(String paymentIntentId) {
      this.paymentIntentId = paymentIntentId;
    }

    /** Minor units to refund; leave unset to refund the rest. */
    public Builder amountMinor(long amountMinor) {
      this.amountMinor = amountMinor;
      return this;
    }

    public Builder putMetadata(String key, String value) {
      this.metadata.put(key, value);
      this.metadataSet = true;
      return this;
    }

    public RefundCreateParams build() {
      if (paymentIntentId == null || paymentIntentId.isEmpty()) {
        throw new ConfigurationException("paymentIntentId is required");
      }
      JsonObject body = new JsonObject();
      body.addProperty("payment_intent_id", paymentIntentId);
      if (amountMinor != null) body.addProperty("amount_minor", amountMinor);
      if (metadataSet) body.add("metadata", Params.stringMap(metadata));
      return new RefundCreateParams(body);
    }
  }
}
