package dev.paygate;

import java.util.Map;

/** {@code client.disputes()}: retrieve (disputes are opened and decided at the gateway). */
public final class DisputeService {
  private final RequestSender sender;

  DisputeService(RequestSender sender) {
    this.sender = sender;
  }

  public Dispute retrieve(String id) {
    RequestSender.Response response =
        sender.get("/v1/disputes/" + RequestSender.pathSegment(id, "dispute id"), Map.of());
    return new Dispute(response.body(), response.info());
  }
}
