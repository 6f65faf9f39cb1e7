package dev.paygate;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Thrown on 400 {@code validation_error}: the request is malformed; {@link #fieldErrors()} names the fields. */
public class InvalidRequestException extends ApiException {
  private static final long serialVersionUID = 1L;

  InvalidRequestException(ApiError error) {
    super(error);
  }

  /** The problem's {@code errors} member, typed; entries without a string field and message are skipped. */
  public List<FieldError> fieldErrors() {
    JsonElement errors = problem().get("errors");
    List<FieldError> typed = new ArrayList<>();
    if (errors == null || !errors.isJsonArray()) return List.of();
    for (JsonElement entry : errors.getAsJsonArray()) {
      if (!entry.isJsonObject()) continue;
      JsonObject error = entry.getAsJsonObject();
      if (isString(error.get("field")) && isString(error.get("message"))) {
        typed.add(new FieldError(error.get("field").getAsString(), error.get("message").getAsString()));
      }
    }
    return List.copyOf(typed);
  }

  private static boolean isString(JsonElement value) {
    return value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isString();
  }
}
