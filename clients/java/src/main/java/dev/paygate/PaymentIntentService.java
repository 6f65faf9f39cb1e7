package dev.paygate;

import java.util.Map;
import java.util.UUID;

/** {@code client.paymentIntents()}: create, retrieve, confirm, cancel. */
public final class PaymentIntentService {
  private final RequestSender sender;

  PaymentIntentService(RequestSender sender) {
    this.sender = sender;
  }

  /**
   * Creates a payment intent. The Idempotency-Key used (yours, or a new random UUID v4) is in
   * {@code intent.lastResponse().get().idempotencyKey()}; repeat the call with it after a
   * {@link ConnectionException}.
   */
  public PaymentIntent create(PaymentIntentCreateParams params, RequestOptions options) {
    String key = options.idempotencyKey().orElseGet(() -> UUID.randomUUID().toString());
    RequestSender.Response response = sender.post("/v1/payment-intents", params.toJson(), key);
    return new PaymentIntent(response.body(), response.info());
  }

  public PaymentIntent create(PaymentIntentCreateParams params) {
    return create(params, RequestOptions.none());
  }

  public PaymentIntent retrieve(String id) {
    RequestSender.Response response =
        sender.get("/v1/payment-intents/" + RequestSender.pathSegment(id, "payment intent id"), Map.of());
    return new PaymentIntent(response.body(), response.info());
  }

  /**
   * Confirms an intent. After a {@link ConnectionException}, retrieve the intent instead of
   * confirming again. A decline throws {@link CardException}.
   */
  public PaymentIntent confirm(String id, PaymentIntentConfirmParams params) {
    String path = "/v1/payment-intents/" + RequestSender.pathSegment(id, "payment intent id") + "/confirm";
    RequestSender.Response response = sender.post(path, params.toJson(), null);
    return new PaymentIntent(response.body(), response.info());
  }

  /**
   * Captures all or part of a REQUIRES_CAPTURE intent (created with capture method {@code manual}).
   * Safe to repeat with the same Idempotency-Key (yours, or a new random UUID v4). A capture the
   * gateway refuses throws {@link CardException} with the intent, still REQUIRES_CAPTURE.
   */
  public PaymentIntent capture(String id, PaymentIntentCaptureParams params, RequestOptions options) {
    String key = options.idempotencyKey().orElseGet(() -> UUID.randomUUID().toString());
    String path = "/v1/payment-intents/" + RequestSender.pathSegment(id, "payment intent id") + "/capture";
    RequestSender.Response response = sender.post(path, params.toJson(), key);
    return new PaymentIntent(response.body(), response.info());
  }

  /** Captures all that is capturable, with a new Idempotency-Key. */
  public PaymentIntent capture(String id) {
    return capture(id, PaymentIntentCaptureParams.all(), RequestOptions.none());
  }

  /** Cancels a CREATED or REQUIRES_ACTION intent, or voids a REQUIRES_CAPTURE one. */
  public PaymentIntent cancel(String id, PaymentIntentCancelParams params) {
    String path = "/v1/payment-intents/" + RequestSender.pathSegment(id, "payment intent id") + "/cancel";
    RequestSender.Response response = sender.post(path, params.toJson(), null);
    return new PaymentIntent(response.body(), response.info());
  }

  public PaymentIntent cancel(String id) {
    return cancel(id, PaymentIntentCancelParams.empty());
  }
}
