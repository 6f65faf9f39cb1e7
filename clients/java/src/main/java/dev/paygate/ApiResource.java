package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Optional;

/**
 * An immutable resource of the API: typed accessors over the JSON object received, which stays
 * available whole through {@link #toJson()} (members added to the API later are kept).
 */
public abstract class ApiResource extends ApiObject {
  private final ResponseInfo lastResponse;

  ApiResource(JsonObject json, ResponseInfo lastResponse) {
    super(json);
    this.lastResponse = lastResponse;
  }

  public String id() {
    return JsonObjects.string(json(), "id");
  }

  /** The response that carried this resource; absent for resources read from a webhook event. */
  public Optional<ResponseInfo> lastResponse() {
    return Optional.ofNullable(lastResponse);
  }
}
