package dev.paygate;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The fixtures shared by every client (clients/conformance/fixtures): recorded from the real service
 * or generated from the contract, and checked against the contract there.
 */
final class Fixtures {
  private Fixtures() {}

  static String text(String name) throws IOException {
    Path folder = Path.of(System.getProperty("paygate.fixtures", "../conformance/fixtures"));
    return Files.readString(folder.resolve(name), StandardCharsets.UTF_8);
  }

  static JsonObject json(String name) throws IOException {
    return JsonParser.parseString(text(name)).getAsJsonObject();
  }
}
