package dev.paygate;

import com.google.gson.JsonObject;

/**
 * An immutable JSON object of the API (a resource, an event, a nested object such as
 * {@link LastPaymentError}): typed accessors in the subclasses over the object received, which
 * stays available whole (members added to the API later are kept).
 */
public abstract class ApiObject {
  private final JsonObject json;

  ApiObject(JsonObject json) {
    this.json = json.deepCopy();
  }

  final JsonObject json() {
    return json;
  }

  /** The object as received, as a JSON object (a copy). */
  public JsonObject toJsonObject() {
    return json.deepCopy();
  }

  /** The object as received, as JSON text. */
  public String toJson() {
    return JsonObjects.GSON.toJson(json);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + toJson();
  }
}
