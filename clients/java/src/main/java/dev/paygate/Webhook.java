package dev.paygate;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Verifies webhook deliveries ({@code Service-Signature}) and builds test headers. */
public final class Webhook {
  /** The specification's anti-replay window, applied in both directions. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);
  /** Rotation needs two; more than this is refused so the work stays bounded. */
  private static final int MAX_SIGNATURES = 16;
  private static final Pattern SIGNATURE_HEX = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern TIMESTAMP = Pattern.compile("\\d{1,15}");
  private static final Pattern EVENT_ID = Pattern.compile("evt_[0-9A-Za-z]{24}");

  private Webhook() {}

  /**
   * Verifies a delivery and returns its event. Pass the raw body exactly as received (read it
   * before any JSON parser), the {@code Service-Signature} header and every secret in use during a
   * rotation. Throws {@link SignatureVerificationException} (never returns false) and, for a signed
   * body that is not an event, {@link InvalidPayloadException}.
   */
  public static Event constructEvent(
      String payload, String header, List<String> secrets, Duration tolerance, Clock clock) {
    if (payload == null) throw new ConfigurationException("payload must be the raw request body");
    return constructEvent(payload.getBytes(StandardCharsets.UTF_8), header, secrets, tolerance, clock);
  }

  /** {@link #constructEvent(String, String, List, Duration, Clock)} with 300 s and the system clock. */
  public static Event constructEvent(String payload, String header, List<String> secrets) {
    return constructEvent(payload, header, secrets, DEFAULT_TOLERANCE, Clock.systemUTC());
  }

  /** One secret: {@link #constructEvent(String, String, List, Duration, Clock)} with that secret alone. */
  public static Event constructEvent(String payload, String header, String secret, Duration tolerance, Clock clock) {
    return constructEvent(payload, header, single(secret), tolerance, clock);
  }

  /** One secret, 300 s and the system clock. */
  public static Event constructEvent(String payload, String header, String secret) {
    return constructEvent(payload, header, single(secret), DEFAULT_TOLERANCE, Clock.systemUTC());
  }

  /** One secret, over the raw body bytes. */
  public static Event constructEvent(byte[] payload, String header, String secret, Duration tolerance, Clock clock) {
    return constructEvent(payload, header, single(secret), tolerance, clock);
  }

  /** The same check over the raw body bytes. */
  public static Event constructEvent(
      byte[] payload, String header, List<String> secrets, Duration tolerance, Clock clock) {
    if (tolerance == null || tolerance.isZero() || tolerance.isNegative()) {
      // Zero would reject every delivery and tempt a caller to switch verification off.
      throw new ConfigurationException("tolerance must be a positive duration (default 300 s)");
    }
    if (clock == null) throw new ConfigurationException("clock must not be null");
    List<byte[]> keys = checkSecrets(secrets);
    if (payload == null) throw new ConfigurationException("payload must be the raw request body");

    String timestamp = null;
    List<String> signatures = new ArrayList<>();
    if (header == null || header.isBlank()) throw malformed("header is missing");
    for (String element : header.split(",", -1)) {
      int separator = element.indexOf('=');
      if (separator <= 0) throw malformed("has an element that is not key=value");
      String key = element.substring(0, separator).trim();
      String value = element.substring(separator + 1).trim();
      if (key.equals("t")) {
        if (timestamp != null) throw malformed("has more than one t");
        if (!TIMESTAMP.matcher(value).matches()) throw malformed("has a t that is not Unix seconds");
        timestamp = value;
      } else if (key.equals("v1")) {
        signatures.add(value);
      }
      // Other schemes (a future v2) are ignored so a newer service does not break this client.
    }
    if (timestamp == null) throw malformed("has no t");
    if (signatures.isEmpty()) throw malformed("has no v1 signature");
    if (signatures.size() > MAX_SIGNATURES) throw malformed("has more than " + MAX_SIGNATURES + " signatures");

    byte[] placeholder = new byte[32];
    int matches = 0;
    // Every secret against every candidate, no early exit: timing tells nothing about which matched.
    for (byte[] key : keys) {
      byte[] expected = sign(key, timestamp, payload);
      for (String candidate : signatures) {
        boolean wellFormed = SIGNATURE_HEX.matcher(candidate).matches();
        byte[] presented = wellFormed ? HexFormat.of().parseHex(candidate) : placeholder;
        boolean equal = MessageDigest.isEqual(expected, presented);
        matches += equal && wellFormed ? 1 : 0;
      }
    }
    if (matches == 0) {
      throw new SignatureVerificationException(
          SignatureVerificationException.Reason.NO_MATCHING_SIGNATURE,
          "No v1 signature matches: check the endpoint secret and that the body is the raw bytes, not re-serialised JSON");
    }
    long now = Math.floorDiv(clock.millis(), 1000L);
    if (Math.abs(now - Long.parseLong(timestamp)) > tolerance.getSeconds()) {
      throw new SignatureVerificationException(
          SignatureVerificationException.Reason.TIMESTAMP_OUTSIDE_TOLERANCE,
          "Signature timestamp is more than " + tolerance.getSeconds()
              + " s away from this clock (replay, or an unsynchronised clock)");
    }
    return new Event(parseEnvelope(payload));
  }

  /** Builds a valid {@code Service-Signature} header for your own tests of a webhook handler. */
  public static String generateTestHeader(String payload, List<String> secrets, long timestampUnix) {
    if (timestampUnix < 0) throw new ConfigurationException("timestamp must be non-negative Unix seconds");
    List<byte[]> keys = checkSecrets(secrets);
    StringBuilder header = new StringBuilder("t=").append(timestampUnix);
    byte[] body = payload.getBytes(StandardCharsets.UTF_8);
    for (byte[] key : keys) {
      header.append(",v1=").append(HexFormat.of().formatHex(sign(key, Long.toString(timestampUnix), body)));
    }
    return header.toString();
  }

  public static String generateTestHeader(String payload, String secret, long timestampUnix) {
    return generateTestHeader(payload, single(secret), timestampUnix);
  }

  /** A list of one that may hold null, so a null secret is the same ConfigurationException as in a list. */
  private static List<String> single(String secret) {
    return Collections.singletonList(secret);
  }

  private static SignatureVerificationException malformed(String why) {
    return new SignatureVerificationException(
        SignatureVerificationException.Reason.MALFORMED_HEADER, "Service-Signature " + why);
  }

  private static List<byte[]> checkSecrets(List<String> secrets) {
    if (secrets == null || secrets.isEmpty()) {
      throw new ConfigurationException("webhook secrets must be one or more non-empty strings (whsec_...)");
    }
    List<byte[]> keys = new ArrayList<>();
    for (String secret : secrets) {
      if (secret == null || secret.isEmpty()) {
        throw new ConfigurationException("webhook secrets must be one or more non-empty strings (whsec_...)");
      }
      keys.add(secret.getBytes(StandardCharsets.UTF_8));
    }
    return keys;
  }

  private static byte[] sign(byte[] key, String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  private static JsonObject parseEnvelope(byte[] body) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(java.nio.ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException e) {
      throw new InvalidPayloadException("The signed body is not valid UTF-8");
    }
    JsonObject envelope = JsonObjects.parseObjectOrNull(text);
    String problem = envelope == null ? "not a JSON object" : envelopeProblem(envelope);
    if (problem != null) throw new InvalidPayloadException("The signed body is not an event envelope: " + problem);
    return envelope;
  }

  private static String envelopeProblem(JsonObject value) {
    String id = stringMember(value, "id");
    if (id == null || !EVENT_ID.matcher(id).matches()) return "id is not evt_ + 24 base62 characters";
    if (!"event".equals(stringMember(value, "object"))) return "object is not \"event\"";
    String type = stringMember(value, "type");
    if (type == null || type.isEmpty()) return "type is not a string";
    if (stringMember(value, "created") == null) return "created is not a string";
    JsonElement livemode = value.get("livemode");
    if (livemode == null || !livemode.isJsonPrimitive() || !livemode.getAsJsonPrimitive().isBoolean()) {
      return "livemode is not a boolean";
    }
    JsonElement data = value.get("data");
    if (data == null || !data.isJsonObject()) return "data.object is not an object";
    JsonElement object = data.getAsJsonObject().get("object");
    if (object == null || !object.isJsonObject()) return "data.object is not an object";
    return null;
  }

  private static String stringMember(JsonObject object, String member) {
    JsonElement value = object.get(member);
    return value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isString() ? value.getAsString() : null;
  }
}
