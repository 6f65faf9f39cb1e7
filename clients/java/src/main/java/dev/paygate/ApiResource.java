package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Optional;

/**
 * An immutable resource of the API: typed accessors over the JSON object received, which stays
 * available whole through {@link #toJson()} (members added to the API later are kept).
 */
public abstract class ApiResource {
  private final JsonObject json;
  private final ResponseInfo lastResponse;

  ApiResource(JsonObject json, ResponseInfo lastResponse) {
    this.json = json.deepCopy();
    this.lastResponse = lastResponse;
  }

  final JsonObject json() {
    return json;
  }

  public String id() {
    return JsonObjects.string(json, "id");
  }

  /** The resource as received, as a JSON object (a copy). */
  public JsonObject toJsonObject() {
    return json.deepCopy();
  }

  /** The resource as received, as JSON text. */
  public String toJson() {
    return JsonObjects.GSON.toJson(json);
  }

  /** The response that carried this resource; absent for resources read from a webhook event. */
  public Optional<ResponseInfo> lastResponse() {
    return Optional.ofNullable(lastResponse);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + toJson();
  }
}
