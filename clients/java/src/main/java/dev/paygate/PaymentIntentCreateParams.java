package dev.paygate;

import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** Body of {@code POST /v1/payment-intents}: amount in minor units, currency, gateway. */
public final class PaymentIntentCreateParams {
  private final JsonObject body;

  private PaymentIntentCreateParams(JsonObject body) {
    this.body = body;
  }

  public static Builder builder() {
    return new Builder();
  }

  JsonObject toJson() {
    return body.deepCopy();
  }

  /** Builds the parameters; {@code amountMinor}, {@code currency} and {@code gatewayId} are required. */
  public static final class Builder {
    private Long amountMinor;
    private String currency;
    private String gatewayId;
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private boolean metadataSet;
    private String returnUrl;
    private Long expiresInSeconds;
    private String captureMethod;
    private String customerId;
    private String setupFutureUsage;

    private Builder() {}

    /** The merchant's customer ({@code cus_}) this payment belongs to. */
    public Builder customerId(String customerId) {
      this.customerId = customerId;
      return this;
    }

    /**
     * {@code off_session}: save the payment method for the customer when the charge succeeds (needs
     * {@link #customerId}).
     */
    public Builder setupFutureUsage(String setupFutureUsage) {
      this.setupFutureUsage = setupFutureUsage;
      return this;
    }

    /**
     * {@code manual}: authorise at confirm and capture later ({@link PaymentIntentService#capture});
     * the default is {@code automatic}.
     */
    public Builder captureMethod(String captureMethod) {
      this.captureMethod = captureMethod;
      return this;
    }

    /** The amount in minor units (cents for USD, yen for JPY). */
    public Builder amountMinor(long amountMinor) {
      this.amountMinor = amountMinor;
      return this;
    }

    public Builder currency(String currency) {
      this.currency = currency;
      return this;
    }

    public Builder gatewayId(String gatewayId) {
      this.gatewayId = gatewayId;
      return this;
    }

    public Builder putMetadata(String key, String value) {
      this.metadata.put(key, value);
      this.metadataSet = true;
      return this;
    }

    public Builder metadata(Map<String, String> metadata) {
      this.metadata.clear();
      this.metadata.putAll(metadata);
      this.metadataSet = true;
      return this;
    }

    public Builder returnUrl(String returnUrl) {
      this.returnUrl = returnUrl;
      return this;
    }

    public Builder expiresInSeconds(long expiresInSeconds) {
      this.expiresInSeconds = expiresInSeconds;
      return this;
    }

    public PaymentIntentCreateParams build() {
      if (amountMinor == null || currency == null || gatewayId == null) {
        throw new ConfigurationException("amountMinor, currency and gatewayId are required");
      }
      JsonObject body = new JsonObject();
      body.addProperty("amount_minor", amountMinor);
      body.addProperty("currency", currency);
      body.addProperty("gateway_id", gatewayId);
      if (metadataSet) body.add("metadata", Params.stringMap(metadata));
      if (returnUrl != null) body.addProperty("return_url", returnUrl);
      if (expiresInSeconds != null) body.addProperty("expires_in_seconds", expiresInSeconds);
      if (captureMethod != null) body.addProperty("capture_method", captureMethod);
      if (customerId != null) body.addProperty("customer_id", customerId);
      if (setupFutureUsage != null) body.addProperty("setup_future_usage", setupFutureUsage);
      return new PaymentIntentCreateParams(body);
    }
  }
}
