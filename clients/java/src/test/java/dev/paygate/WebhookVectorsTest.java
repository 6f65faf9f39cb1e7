package dev.paygate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The shared webhook signature vectors of packages/contract/vectors, and the helpers around them. */
class WebhookVectorsTest {
  private static JsonObject vectors() throws Exception {
    Path path = Path.of(System.getProperty("paygate.vectors", "../../packages/contract/vectors/webhook-signatures.json"));
    return JsonParser.parseString(Files.readString(path, StandardCharsets.UTF_8)).getAsJsonObject();
  }

  @TestFactory
  Stream<DynamicTest> everySharedVector() throws Exception {
    JsonObject vectors = vectors();
    long tolerance = vectors.get("tolerance_seconds").getAsLong();
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonElement element : vectors.getAsJsonArray("cases")) {
      JsonObject vector = element.getAsJsonObject();
      tests.add(
          DynamicTest.dynamicTest(
              vector.get("name").getAsString(),
              () -> {
                List<String> secrets = new ArrayList<>();
                vector.getAsJsonArray("secrets").forEach(s -> secrets.add(s.getAsString()));
                String body = vector.get("raw_body").getAsString();
                String header = vector.get("header").getAsString();
                Clock clock = Clock.fixed(Instant.ofEpochSecond(vector.get("now").getAsLong()), ZoneOffset.UTC);
                Runnable verify =
                    () -> Webhook.constructEvent(body, header.isEmpty() ? null : header, secrets, Duration.ofSeconds(tolerance), clock);
                if (vector.get("valid").getAsBoolean()) {
                  Event event = Webhook.constructEvent(body, header, secrets, Duration.ofSeconds(tolerance), clock);
                  assertEquals(JsonParser.parseString(body), event.toJsonObject());
                } else if (vector.get("error").getAsString().equals("invalid_payload")) {
                  assertThrows(InvalidPayloadException.class, verify::run);
                } else {
                  SignatureVerificationException error = assertThrows(SignatureVerificationException.class, verify::run);
                  assertEquals(vector.get("error").getAsString().toUpperCase(Locale.ROOT), error.reason().name());
                }
              }));
    }
    assertTrue(tests.size() >= 20, "the vector file holds its cases");
    return tests.stream();
  }

  @Test
  void testHeaderVerifiesAndTheDefaultToleranceIs300SecondsBothWays() {
    String body =
        "{\"id\":\"evt_1a2B3c4D5e6F7g8H9i0J1k2L\",\"object\":\"event\",\"type\":\"refund.succeeded\",\"created\":\"2026-01-01T00:00:00Z\","
            + "\"livemode\":false,\"data\":{\"object\":{\"id\":\"re_1\",\"amount_minor\":999999999999}}}";
    String header = Webhook.generateTestHeader(body, "whsec_test", 1_767_225_600L);
    for (long offset : new long[] {-300, 0, 300}) {
      Clock clock = Clock.fixed(Instant.ofEpochSecond(1_767_225_600L + offset), ZoneOffset.UTC);
      Event event = Webhook.constructEvent(body, header, List.of("whsec_test"), Webhook.DEFAULT_TOLERANCE, clock);
      assertEquals(999_999_999_999L, event.refund().amountMinor());
    }
    for (long offset : new long[] {-301, 301}) {
      Clock clock = Clock.fixed(Instant.ofEpochSecond(1_767_225_600L + offset), ZoneOffset.UTC);
      SignatureVerificationException error =
          assertThrows(
              SignatureVerificationException.class,
              () -> Webhook.constructEvent(body, header, List.of("whsec_test"), Webhook.DEFAULT_TOLERANCE, clock));
      assertEquals(SignatureVerificationException.Reason.TIMESTAMP_OUTSIDE_TOLERANCE, error.reason());
    }
    assertThrows(
        ConfigurationException.class,
        () -> Webhook.constructEvent(body, header, List.of("whsec_test"), Duration.ZERO, Clock.systemUTC()));
  }
}
