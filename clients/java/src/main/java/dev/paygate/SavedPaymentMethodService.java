package dev.paygate;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code client.savedPaymentMethods()}: a customer's saved payment methods. */
public final class SavedPaymentMethodService {
  private final RequestSender sender;

  SavedPaymentMethodService(RequestSender sender) {
    this.sender = sender;
  }

  /**
   * Every saved method of the customer, newest first, active and detached, page by page as you
   * iterate; {@code limit} (null: the server's 20) is the page size.
   */
  public Iterable<SavedPaymentMethod> list(String customerId, Integer limit) {
    String path = "/v1/customers/" + RequestSender.pathSegment(customerId, "customer id") + "/saved-payment-methods";
    Map<String, String> query = new LinkedHashMap<>();
    if (limit != null) query.put("limit", String.valueOf(limit));
    return () -> new PageWalker<>(sender, path, query, SavedPaymentMethod::fromJson);
  }

  /** Detaches the method here and at its gateway, for good; repeating it answers the same. */
  public SavedPaymentMethod detach(String id) {
    String path = "/v1/saved-payment-methods/" + RequestSender.pathSegment(id, "saved payment method id") + "/detach";
    RequestSender.Response response = sender.post(path, new com.google.gson.JsonObject(), null);
    return new SavedPaymentMethod(response.body(), response.info());
  }
}
