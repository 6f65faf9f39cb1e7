package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Map;

final class Params {
  private Params() {}

  static JsonObject stringMap(Map<String, String> map) {
    JsonObject object = new JsonObject();
    map.forEach(object::addProperty);
    return object;
  }
}
