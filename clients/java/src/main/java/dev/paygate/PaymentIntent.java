// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
package dev.paygate;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A payment intent: one payment of an amount, from creation to its outcome. Immutable; members the
 * API adds later are kept in {@link #toJsonObject()}.
 */
public final class PaymentIntent extends ApiResource {
  public static final String STATUS_CREATED = "CREATED";
  public static final String STATUS_REQUIRES_ACTION = "REQUIRES_ACTION";
  public static final String STATUS_PROCESSING = "PROCESSING";
  public static final String STATUS_REQUIRES_CAPTURE = "REQUIRES_CAPTURE";
  public static final String STATUS_SUCCEEDED = "SUCCEEDED";
  public static final String STATUS_FAILED = "FAILED";
  public static final String STATUS_CANCELED = "CANCELED";
  public static final String STATUS_EXPIRED = "EXPIRED";

  public static final String CAPTURE_METHOD_AUTOMATIC = "automatic";
  public static final String CAPTURE_METHOD_MANUAL = "manual";

  public static final String CANCELLATION_REASON_DUPLICATE = "duplicate";
  public static final String CANCELLATION_REASON_FRAUDULENT = "fraudulent";
  public static final String CANCELLATION_REASON_REQUESTED_BY_CUSTOMER = "requested_by_customer";
  public static final String CANCELLATION_REASON_ABANDONED = "abandoned";
  public static final String CANCELLATION_REASON_REQUESTED = "requested";
  public static final String CANCELLATION_REASON_AUTHORIZATION_EXPIRED = "authorization_expired";

  /** The documented values of {@link #setupFutureUsage()} (more may be added later). */
  public static final List<String> SETUP_FUTURE_USAGES =
      List.of(
          "off_session");

  PaymentIntent(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of an event. */
  public static PaymentIntent fromJson(JsonObject json) {
    return new PaymentIntent(json, null);
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
   * One of {@link #STATUS_CREATED}, {@link #STATUS_REQUIRES_ACTION}, {@link #STATUS_PROCESSING},
   * {@link #STATUS_REQUIRES_CAPTURE}, {@link #STATUS_SUCCEEDED}, {@link #STATUS_FAILED}, {@link
   * #STATUS_CANCELED}, {@link #STATUS_EXPIRED}.
   */
  public String status() {
    return JsonObjects.string(json(), "status");
  }

  /** The gateway account that takes the payment. */
  public String gatewayId() {
    return JsonObjects.string(json(), "gateway_id");
  }

  /** Where to send the payer when the status is REQUIRES_ACTION; empty otherwise. */
  public Optional<String> redirectUrl() {
    return Optional.ofNullable(JsonObjects.string(json(), "redirect_url"));
  }

  /** Where the gateway sends the payer back after a redirect; empty when none was given. */
  public Optional<String> returnUrl() {
    return Optional.ofNullable(JsonObjects.string(json(), "return_url"));
  }

  /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
  public Map<String, String> metadata() {
    return JsonObjects.stringMap(json(), "metadata");
  }

  /** False for test data. */
  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  /** How much of the amount has been refunded, in minor units. */
  public long amountRefundedMinor() {
    return JsonObjects.integer(json(), "amount_refunded_minor");
  }

  /** Why the last payment attempt failed; empty unless the status is FAILED. */
  public Optional<LastPaymentError> lastPaymentError() {
    JsonElement value = json().get("last_payment_error");
    return value != null && value.isJsonObject()
        ? Optional.of(LastPaymentError.fromJson(value.getAsJsonObject()))
        : Optional.empty();
  }

  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  public long version() {
    return JsonObjects.integer(json(), "version");
  }

  /** ISO 8601 UTC instant. */
  public String createdAt() {
    return JsonObjects.string(json(), "created_at");
  }

  /** When a CREATED or REQUIRES_ACTION intent expires (ISO 8601 UTC instant). */
  public String expiresAt() {
    return JsonObjects.string(json(), "expires_at");
  }

  /** Present when read with a secret key; hand it to the browser component, never log it. */
  public Optional<String> clientSecret() {
    return Optional.ofNullable(JsonObjects.string(json(), "client_secret"));
  }

  /**
   * Automatic (the default): the payment is captured when it is authorised; manual: it is
   * authorised (REQUIRES_CAPTURE) and captured later by POST /v1/payment-intents/{id}/capture, or
   * voided by cancel. One of {@link #CAPTURE_METHOD_AUTOMATIC}, {@link #CAPTURE_METHOD_MANUAL}.
   */
  public String captureMethod() {
    return JsonObjects.string(json(), "capture_method");
  }

  /** What a capture may take now: the authorised amount while REQUIRES_CAPTURE, else 0. */
  public long amountCapturableMinor() {
    return JsonObjects.integer(json(), "amount_capturable_minor");
  }

  /**
   * What was captured, in minor units: the amount of a SUCCEEDED intent (a manual one: what its
   * capture took).
   */
  public long amountCapturedMinor() {
    return JsonObjects.integer(json(), "amount_captured_minor");
  }

  /**
   * When the gateway drops the authorisation of a REQUIRES_CAPTURE intent (ISO 8601 UTC instant):
   * not captured by then, the intent is CANCELED with cancellation_reason authorization_expired;
   * empty otherwise.
   */
  public Optional<String> captureBefore() {
    return Optional.ofNullable(JsonObjects.string(json(), "capture_before"));
  }

  /**
   * Why a CANCELED intent was canceled: the merchant's reason, requested (a void of an
   * authorisation) or authorization_expired; empty otherwise. One of {@link
   * #CANCELLATION_REASON_DUPLICATE}, {@link #CANCELLATION_REASON_FRAUDULENT}, {@link
   * #CANCELLATION_REASON_REQUESTED_BY_CUSTOMER}, {@link #CANCELLATION_REASON_ABANDONED}, {@link
   * #CANCELLATION_REASON_REQUESTED}, {@link #CANCELLATION_REASON_AUTHORIZATION_EXPIRED}.
   */
  public Optional<String> cancellationReason() {
    return Optional.ofNullable(JsonObjects.string(json(), "cancellation_reason"));
  }

  /** The customer this payment belongs to, or empty. */
  public Optional<String> customerId() {
    return Optional.ofNullable(JsonObjects.string(json(), "customer_id"));
  }

  /**
   * Whether the payment method is saved for the customer when the charge succeeds (off_session) or
   * not (empty). One of {@link #SETUP_FUTURE_USAGES} (more may be added later).
   */
  public Optional<String> setupFutureUsage() {
    return Optional.ofNullable(JsonObjects.string(json(), "setup_future_usage"));
  }
}
