package dev.paygate;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reading typed members out of parsed JSON. Gson's tree keeps each number as the text received
 * (LazilyParsedNumber), so {@code getAsLong} parses that text: an amount never passes through a
 * double.
 */
final class JsonObjects {
  static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

  private JsonObjects() {}

  /** Parses a JSON object, or returns null when the text is not one. */
  static JsonObject parseObjectOrNull(String text) {
    try {
      JsonElement parsed = JsonParser.parseString(text);
      return parsed.isJsonObject() ? parsed.getAsJsonObject() : null;
    } catch (JsonParseException | IllegalStateException e) {
      return null;
    }
  }

  static String string(JsonObject object, String member) {
    JsonElement value = object.get(member);
    return value == null || value.isJsonNull() || !value.isJsonPrimitive() ? null : value.getAsString();
  }

  static long integer(JsonObject object, String member) {
    JsonElement value = object.get(member);
    if (value == null || !value.isJsonPrimitive() || !value.getAsJsonPrimitive().isNumber()) {
      throw new IllegalStateException(member + " is not an integer in this response");
    }
    return value.getAsJsonPrimitive().getAsBigDecimal().longValueExact();
  }

  static boolean bool(JsonObject object, String member) {
    JsonElement value = object.get(member);
    return value != null && value.isJsonPrimitive() && value.getAsBoolean();
  }

  static Map<String, String> stringMap(JsonObject object, String member) {
    JsonElement value = object.get(member);
    if (value == null || !value.isJsonObject()) return Map.of();
    Map<String, String> result = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> entry : value.getAsJsonObject().entrySet()) {
      result.put(entry.getKey(), entry.getValue().isJsonNull() ? null : entry.getValue().getAsString());
    }
    return Collections.unmodifiableMap(result);
  }
}
