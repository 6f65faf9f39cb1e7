package dev.paygate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** {@code client.customers()}: the merchant's customers, whom saved payment methods belong to. */
public final class CustomerService {
  private final RequestSender sender;

  CustomerService(RequestSender sender) {
    this.sender = sender;
  }

  /** Creates a customer; the key used is in {@code lastResponse()}. */
  public Customer create(CustomerParams params, RequestOptions options) {
    String key = options.idempotencyKey().orElseGet(() -> UUID.randomUUID().toString());
    RequestSender.Response response = sender.post("/v1/customers", params.toJson(), key);
    return new Customer(response.body(), response.info());
  }

  public Customer create(CustomerParams params) {
    return create(params, RequestOptions.none());
  }

  public Customer retrieve(String id) {
    RequestSender.Response response = sender.get(path(id), Map.of());
    return new Customer(response.body(), response.info());
  }

  /** Changes e-mail or name and merges metadata; a change that changes nothing writes nothing. */
  public Customer update(String id, CustomerParams params) {
    RequestSender.Response response = sender.post(path(id), params.toJson(), null);
    return new Customer(response.body(), response.info());
  }

  /** Deletes the customer and detaches its saved methods; repeating it answers the same. */
  public Customer delete(String id) {
    RequestSender.Response response = sender.delete(path(id));
    return new Customer(response.body(), response.info());
  }

  /**
   * Every customer, newest first, page by page as you iterate; {@code email} (null: all) finds
   * those with that e-mail in any case, {@code limit} (null: the server's 20) is the page size.
   */
  public Iterable<Customer> list(String email, Integer limit) {
    Map<String, String> query = new LinkedHashMap<>();
    if (email != null) query.put("email", email);
    if (limit != null) query.put("limit", String.valueOf(limit));
    return () -> new PageWalker<>(sender, "/v1/customers", query, Customer::fromJson);
  }

  public Iterable<Customer> list() {
    return list(null, null);
  }

  private static String path(String id) {
    return "/v1/customers/" + RequestSender.pathSegment(id, "customer id");
  }
}
