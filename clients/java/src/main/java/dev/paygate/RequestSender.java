package dev.paygate;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.channels.UnresolvedAddressException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The one place that talks HTTP: headers, time-out, retries and error mapping. Nothing else in the
 * client decides whether a request is repeated. Immutable, so one client serves every thread.
 */
final class RequestSender {
  static final long BACKOFF_BASE_MS = 500;
  static final long BACKOFF_CAP_MS = 8_000;
  static final long RETRY_AFTER_CAP_MS = 60_000;
  private static final Pattern DELTA_SECONDS = Pattern.compile("\\d+");
  private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x7e]{1,255}");

  private final PaygateClient.Settings settings;
  private final String userAgent;

  RequestSender(PaygateClient.Settings settings) {
    this.settings = settings;
    this.userAgent = userAgentFor(settings.telemetry());
  }

  static String userAgentFor(boolean telemetry) {
    return telemetry
        ? "paygate-java/" + PaygateClient.VERSION + " java/" + System.getProperty("java.version")
        : "paygate-java/" + PaygateClient.VERSION;
  }

  String userAgent() {
    return userAgent;
  }

  /** A successful response: its JSON object and what the response said. */
  record Response(JsonObject body, ResponseInfo info) {}

  Response get(String path, Map<String, String> query) {
    return send("GET", path + queryString(query), null, null);
  }

  /** DELETE is idempotent: retried like a GET. */
  Response delete(String path) {
    return send("DELETE", path, null, null);
  }

  Response post(String path, JsonObject body, String idempotencyKey) {
    return send("POST", path, body, idempotencyKey);
  }

  private Response send(String method, String pathAndQuery, JsonObject body, String idempotencyKey) {
    HttpRequest request = build(method, pathAndQuery, body, idempotencyKey);
    for (int retryIndex = 0; ; retryIndex++) {
      boolean canRetry = retryIndex < settings.maxRetries();
      HttpResponse<String> response;
      try {
        response = settings.transport().send(request, settings.timeout());
      } catch (IOException e) {
        boolean notSent = neverSent(e);
        // A GET can always be repeated; a POST only when it provably never left this process.
        if (canRetry && (!method.equals("POST") || notSent)) {
          sleep(backoffMs(retryIndex));
          continue;
        }
        throw new ConnectionException(
            method + " " + pathAndQuery + " failed without a response after " + (retryIndex + 1)
                + " attempt(s): " + e,
            e,
            idempotencyKey,
            !notSent);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ConnectionException("interrupted while waiting for " + method + " " + pathAndQuery, e, idempotencyKey, true);
      }
      int status = response.statusCode();
      if (status >= 200 && status < 300) {
        return new Response(parseSuccess(response, idempotencyKey), info(response, idempotencyKey));
      }
      ApiException error = toApiException(response, idempotencyKey);
      // A POST that got any response is never repeated: the service may have acted on it.
      if (canRetry && !method.equals("POST") && (status == 429 || status >= 500)) {
        sleep(retryWaitMs(response, error.code(), retryIndex));
        continue;
      }
      throw error;
    }
  }

  private HttpRequest build(String method, String pathAndQuery, JsonObject body, String idempotencyKey) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(settings.baseUrl() + pathAndQuery))
            .timeout(settings.timeout())
            .header("X-API-Key", settings.apiKey())
            .header("Accept", "application/json")
            .header("User-Agent", userAgent);
    if (idempotencyKey != null) builder.header("Idempotency-Key", checkIdempotencyKey(idempotencyKey));
    if (method.equals("POST")) {
      String json = JsonObjects.GSON.toJson(body == null ? new JsonObject() : body);
      builder.header("Content-Type", "application/json");
      builder.POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    } else if (method.equals("DELETE")) {
      builder.DELETE();
    } else {
      builder.GET();
    }
    return builder.build();
  }

  static String checkIdempotencyKey(String key) {
    if (key == null || !IDEMPOTENCY_KEY.matcher(key).matches()) {
      throw new ConfigurationException("an idempotency key must be 1 to 255 visible ASCII characters");
    }
    return key;
  }

  /** Connection refused, unknown host, connect time-out: nothing of the request was written. */
  private static boolean neverSent(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof HttpConnectTimeoutException
          || t instanceof UnknownHostException
          || t instanceof UnresolvedAddressException) {
        return true;
      }
    }
    return false;
  }

  /** Full-jitter exponential back-off: uniform in [0, min(8000, 500 * 2^retryIndex)] ms. */
  static long backoffMs(int retryIndex) {
    long bound = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS << Math.min(retryIndex, 20));
    return ThreadLocalRandom.current().nextLong(bound + 1);
  }

  private long retryWaitMs(HttpResponse<String> response, String code, int retryIndex) {
    int status = response.statusCode();
    boolean honoursRetryAfter =
        (status == 429 && code.equals("rate_limited")) || (status == 503 && code.equals("gateway_unavailable"));
    if (honoursRetryAfter) {
      Long retryAfter = parseRetryAfterMs(response.headers().firstValue("retry-after").orElse(null));
      if (retryAfter != null) return retryAfter;
    }
    return backoffMs(retryIndex);
  }

  /** Delta seconds or an HTTP date, capped at 60 s; null when absent or unreadable. */
  Long parseRetryAfterMs(String value) {
    if (value == null) return null;
    String trimmed = value.trim();
    long ms;
    if (DELTA_SECONDS.matcher(trimmed).matches()) {
      try {
        ms = Math.multiplyExact(Long.parseLong(trimmed), 1000L);
      } catch (ArithmeticException | NumberFormatException e) {
        ms = RETRY_AFTER_CAP_MS;
      }
    } else {
      try {
        ZonedDateTime date = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME);
        ms = Math.max(0, date.toInstant().toEpochMilli() - settings.clock().millis());
      } catch (DateTimeParseException e) {
        return null;
      }
    }
    return Math.min(RETRY_AFTER_CAP_MS, ms);
  }

  private void sleep(long ms) {
    try {
      settings.sleeper().sleep(Duration.ofMillis(ms));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectionException("interrupted during back-off", e, null, true);
    }
  }

  private static ResponseInfo info(HttpResponse<String> response, String idempotencyKey) {
    return new ResponseInfo(
        response.statusCode(),
        response.headers().firstValue("x-request-id").orElse(null),
        idempotencyKey,
        response.headers().firstValue("idempotent-replayed").map("true"::equals).orElse(false));
  }

  private static JsonObject parseSuccess(HttpResponse<String> response, String idempotencyKey) {
    JsonObject parsed = JsonObjects.parseObjectOrNull(response.body());
    // Every success of the API is a JSON object; anything else came from something that is not Paygate.
    if (parsed == null) {
      throw ApiException.of(
          new ApiError(
              response.statusCode(),
              "unexpected_response",
              syntheticProblem(response.statusCode(), "The response body was not a JSON object"),
              response.headers().firstValue("x-request-id").orElse(null),
              idempotencyKey));
    }
    return parsed;
  }

  private static ApiException toApiException(HttpResponse<String> response, String idempotencyKey) {
    int status = response.statusCode();
    String requestIdHeader = response.headers().firstValue("x-request-id").orElse(null);
    JsonObject problem = JsonObjects.parseObjectOrNull(response.body());
    String code = problem == null ? null : JsonObjects.string(problem, "code");
    if (problem == null || code == null || !problem.get("code").getAsJsonPrimitive().isString()) {
      return ApiException.of(
          new ApiError(
              status,
              "unexpected_response",
              syntheticProblem(status, "HTTP " + status + " without a problem document"),
              requestIdHeader,
              idempotencyKey));
    }
    String requestId = requestIdHeader != null ? requestIdHeader : JsonObjects.string(problem, "request_id");
    return ApiException.of(new ApiError(status, code, problem, requestId, idempotencyKey));
  }

  /** A stand-in document for a response that carried none (a proxy's HTML page, an empty body). */
  private static JsonObject syntheticProblem(int status, String detail) {
    JsonObject problem = new JsonObject();
    problem.addProperty("type", "about:blank");
    problem.addProperty("title", "Unexpected response");
    problem.addProperty("status", status);
    problem.addProperty("detail", detail);
    problem.addProperty("code", "unexpected_response");
    return problem;
  }

  private static String queryString(Map<String, String> query) {
    if (query == null || query.isEmpty()) return "";
    StringJoiner joiner = new StringJoiner("&", "?", "");
    query.forEach(
        (name, value) -> {
          if (value != null) {
            joiner.add(
                URLEncoder.encode(name, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
          }
        });
    return joiner.length() == 1 ? "" : joiner.toString();
  }

  static String pathSegment(String id, String what) {
    if (id == null || id.isEmpty()) throw new ConfigurationException(what + " must be a non-empty string");
    return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
