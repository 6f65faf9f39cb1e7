package dev.paygate;

import java.util.Map;
import java.util.UUID;

/** {@code client.refunds()}: create and retrieve. */
public final class RefundService {
  private final RequestSender sender;

  RefundService(RequestSender sender) {
    this.sender = sender;
  }

  /** Refunds all or part of a succeeded intent; the key used is in {@code lastResponse()}. */
  public Refund create(RefundCreateParams params, RequestOptions options) {
    String key = options.idempotencyKey().orElseGet(() -> UUID.randomUUID().toString());
    RequestSender.Response response = sender.post("/v1/refunds", params.toJson(), key);
    return new Refund(response.body(), response.info());
  }

  public Refund create(RefundCreateParams params) {
    return create(params, RequestOptions.none());
  }

  public Refund retrieve(String id) {
    RequestSender.Response response =
        sender.get("/v1/refunds/" + RequestSender.pathSegment(id, "refund id"), Map.of());
    return new Refund(response.body(), response.info());
  }
}
