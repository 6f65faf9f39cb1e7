// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Map;
import java.util.Optional;

/**
 * A customer of the merchant, in one mode. Immutable; members the API adds later are kept in {@link
 * #toJsonObject()}.
 */
public final class Customer extends ApiResource {
  Customer(JsonObject json, ResponseInfo lastResponse) {
    super(json, lastResponse);
  }

  /** Builds one from JSON, e.g. the {@code data.object} of an event. */
  public static Customer fromJson(JsonObject json) {
    return new Customer(json, null);
  }

  public Optional<String> email() {
    return Optional.ofNullable(JsonObjects.string(json(), "email"));
  }

  public Optional<String> name() {
    return Optional.ofNullable(JsonObjects.string(json(), "name"));
  }

  /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
  public Map<String, String> metadata() {
    return JsonObjects.stringMap(json(), "metadata");
  }

  /** False for test data. */
  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  /** ISO 8601 UTC instant. */
  public String createdAt() {
    return JsonObjects.string(json(), "created_at");
  }

  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  public long version() {
    return JsonObjects.integer(json(), "version");
  }

  /**
   * True once the customer is deleted (the answer to DELETE, and customer.deleted); false before.
   */
  public boolean deleted() {
    return JsonObjects.bool(json(), "deleted");
  }
}
