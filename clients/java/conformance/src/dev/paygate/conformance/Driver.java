package dev.paygate.conformance;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import dev.paygate.ApiException;
import dev.paygate.ApiResource;
import dev.paygate.ConfigurationException;
import dev.paygate.ConnectionException;
import dev.paygate.Customer;
import dev.paygate.CustomerParams;
import dev.paygate.Event;
import dev.paygate.InvalidPayloadException;
import dev.paygate.PaygateClient;
import dev.paygate.PaygateException;
import dev.paygate.PaymentIntentCancelParams;
import dev.paygate.PaymentIntentCaptureParams;
import dev.paygate.PaymentIntentConfirmParams;
import dev.paygate.PaymentIntentCreateParams;
import dev.paygate.RefundCreateParams;
import dev.paygate.RequestOptions;
import dev.paygate.SavedPaymentMethod;
import dev.paygate.SignatureVerificationException;
import dev.paygate.Transaction;
import dev.paygate.TransactionListParams;
import dev.paygate.Transport;
import dev.paygate.Webhook;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The conformance driver of paygate-java: JSON Lines commands on stdin, one JSON line per command on
 * stdout (../shared/CLIENTS.md, clients/README.md). It uses only the client's public API and its
 * documented testing aids: the {@code sleeper} (to record back-off waits) and the {@code transport}
 * (to count attempts).
 */
public final class Driver {
  private static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();
  private static final Set<String> HTTP_OPS =
      Set.of(
          "payment_intents.create",
          "payment_intents.retrieve",
          "payment_intents.confirm",
          "payment_intents.capture",
          "payment_intents.cancel",
          "refunds.create",
          "refunds.retrieve",
          "transactions.list_all",
          "customers.create",
          "customers.retrieve",
          "customers.update",
          "customers.delete",
          "customers.list_all",
          "saved_payment_methods.list_all",
          "saved_payment_methods.detach");

  private PaygateClient client;
  private final List<Long> sleeps = new ArrayList<>();
  private int attempts;

  public static void main(String[] args) throws Exception {
    // Nothing but replies may reach stdout: anything else printed by mistake goes to stderr.
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    Driver driver = new Driver();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank()) continue;
      out.print(GSON.toJson(driver.handle(line)));
      out.print('\n');
      out.flush();
    }
  }

  JsonObject handle(String line) {
    JsonObject command;
    JsonElement id = JsonNull.INSTANCE;
    try {
      command = JsonParser.parseString(line).getAsJsonObject();
      if (command.has("id")) id = command.get("id");
    } catch (RuntimeException e) {
      return failure(id, new IllegalArgumentException("not a JSON object line"), "configuration");
    }
    String op = command.has("op") && command.get("op").isJsonPrimitive() ? command.get("op").getAsString() : "";
    sleeps.clear();
    attempts = 0;
    JsonObject reply;
    try {
      JsonObject result = run(op, command);
      reply = new JsonObject();
      reply.add("id", id);
      reply.addProperty("ok", true);
      reply.add("result", result);
    } catch (UnknownOp e) {
      reply = failure(id, e, "configuration");
    } catch (RuntimeException e) {
      reply = failure(id, e, kindOf(e));
    }
    if (HTTP_OPS.contains(op)) {
      JsonArray waits = new JsonArray();
      sleeps.forEach(waits::add);
      reply.add("sleeps_ms", waits);
      reply.addProperty("attempts", attempts);
    }
    return reply;
  }

  private static final class UnknownOp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownOp(String op) {
      super("unknown op " + op);
    }
  }

  private JsonObject run(String op, JsonObject c) {
    switch (op) {
      case "configure":
        client = null;
        client = configure(c);
        return new JsonObject();
      case "info":
        {
          JsonObject info = new JsonObject();
          info.addProperty("language", "java");
          info.addProperty("client_version", PaygateClient.VERSION);
          info.addProperty("runtime_version", System.getProperty("java.version"));
          info.addProperty("user_agent", requireClient().userAgent());
          return info;
        }
      case "payment_intents.create":
        return withKey(requireClient().paymentIntents().create(intentParams(obj(c, "params")), options(c)));
      case "payment_intents.retrieve":
        return resource(requireClient().paymentIntents().retrieve(str(c, "resource_id")));
      case "payment_intents.confirm":
        {
          String token = str(obj(c, "params"), "payment_method_token");
          return resource(
              requireClient()
                  .paymentIntents()
                  .confirm(
                      str(c, "resource_id"),
                      token == null ? PaymentIntentConfirmParams.empty() : PaymentIntentConfirmParams.withToken(token)));
        }
      case "payment_intents.capture":
        {
          JsonObject p = obj(c, "params");
          PaymentIntentCaptureParams params =
              has(p, "amount_minor")
                  ? PaymentIntentCaptureParams.amountMinor(p.get("amount_minor").getAsLong())
                  : PaymentIntentCaptureParams.all();
          return withKey(requireClient().paymentIntents().capture(str(c, "resource_id"), params, options(c)));
        }
      case "payment_intents.cancel":
        {
          String reason = str(obj(c, "params"), "cancellation_reason");
          return resource(
              requireClient()
                  .paymentIntents()
                  .cancel(
                      str(c, "resource_id"),
                      reason == null ? PaymentIntentCancelParams.empty() : PaymentIntentCancelParams.withReason(reason)));
        }
      case "refunds.create":
        return withKey(requireClient().refunds().create(refundParams(obj(c, "params")), options(c)));
      case "refunds.retrieve":
        return resource(requireClient().refunds().retrieve(str(c, "resource_id")));
      case "transactions.list_all":
        {
          JsonArray items = new JsonArray();
          for (Transaction txn : requireClient().transactions().list(listParams(obj(c, "params")))) {
            items.add(txn.toJsonObject());
          }
          JsonObject result = new JsonObject();
          result.add("items", items);
          return result;
        }
      case "customers.create":
        return withKey(requireClient().customers().create(customerParams(obj(c, "params")), options(c)));
      case "customers.retrieve":
        return resource(requireClient().customers().retrieve(str(c, "resource_id")));
      case "customers.update":
        return resource(requireClient().customers().update(str(c, "resource_id"), customerParams(obj(c, "params"))));
      case "customers.delete":
        return resource(requireClient().customers().delete(str(c, "resource_id")));
      case "customers.list_all":
        {
          JsonObject p = obj(c, "params");
          Integer limit = has(p, "limit") ? p.get("limit").getAsInt() : null;
          JsonArray items = new JsonArray();
          for (Customer customer : requireClient().customers().list(str(p, "email"), limit)) {
            items.add(customer.toJsonObject());
          }
          JsonObject result = new JsonObject();
          result.add("items", items);
          return result;
        }
      case "saved_payment_methods.list_all":
        {
          JsonObject p = obj(c, "params");
          Integer limit = has(p, "limit") ? p.get("limit").getAsInt() : null;
          JsonArray items = new JsonArray();
          for (SavedPaymentMethod method : requireClient().savedPaymentMethods().list(str(c, "resource_id"), limit)) {
            items.add(method.toJsonObject());
          }
          JsonObject result = new JsonObject();
          result.add("items", items);
          return result;
        }
      case "saved_payment_methods.detach":
        return resource(requireClient().savedPaymentMethods().detach(str(c, "resource_id")));
      case "webhooks.construct_event":
        {
          String header = str(c, "header");
          String payload = str(c, "payload");
          String signature = header == null || header.isEmpty() ? null : header;
          Duration tolerance =
              c.has("tolerance_seconds") ? Duration.ofSeconds(c.get("tolerance_seconds").getAsLong()) : Webhook.DEFAULT_TOLERANCE;
          Clock clock =
              c.has("now_unix")
                  ? Clock.fixed(Instant.ofEpochSecond(c.get("now_unix").getAsLong()), ZoneOffset.UTC)
                  : Clock.systemUTC();
          // A string goes to the one-secret overload, a list to the list one: the suite checks both.
          Event event;
          if (c.has("secrets") && c.get("secrets").isJsonPrimitive()) {
            event = Webhook.constructEvent(payload, signature, c.get("secrets").getAsString(), tolerance, clock);
          } else {
            List<String> secrets = new ArrayList<>();
            if (c.has("secrets") && c.get("secrets").isJsonArray()) {
              c.getAsJsonArray("secrets").forEach(s -> secrets.add(s.getAsString()));
            }
            event = Webhook.constructEvent(payload, signature, secrets, tolerance, clock);
          }
          JsonObject result = new JsonObject();
          result.add("event", event.toJsonObject());
          return result;
        }
      case "webhooks.test_header":
        {
          JsonObject result = new JsonObject();
          result.addProperty(
              "header", Webhook.generateTestHeader(str(c, "payload"), str(c, "secret"), c.get("timestamp_unix").getAsLong()));
          return result;
        }
      default:
        throw new UnknownOp(op);
    }
  }

  private PaygateClient configure(JsonObject c) {
    PaygateClient.Builder builder = PaygateClient.builder().apiKey(str(c, "api_key")).baseUrl(str(c, "base_url"));
    Duration timeout = PaygateClient.DEFAULT_TIMEOUT;
    if (has(c, "timeout_ms")) {
      timeout = Duration.ofMillis(c.get("timeout_ms").getAsLong());
      builder.timeout(timeout);
    }
    if (has(c, "max_retries")) builder.maxRetries(c.get("max_retries").getAsInt());
    if (has(c, "telemetry")) builder.telemetry(c.get("telemetry").getAsBoolean());
    boolean recordOnly = has(c, "record_sleeps") && c.get("record_sleeps").getAsBoolean();
    builder.sleeper(
        duration -> {
          sleeps.add(duration.toMillis());
          if (!recordOnly) Thread.sleep(duration.toMillis());
        });
    Transport real = Transport.httpClient(timeout.isNegative() || timeout.isZero() ? Duration.ofSeconds(1) : timeout);
    builder.transport(
        (request, attemptTimeout) -> {
          attempts++;
          return real.send(request, attemptTimeout);
        });
    return builder.build();
  }

  private PaygateClient requireClient() {
    if (client == null) throw new NotConfigured();
    return client;
  }

  private static final class NotConfigured extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotConfigured() {
      super("configure must succeed before this op");
    }
  }

  private static PaymentIntentCreateParams intentParams(JsonObject p) {
    PaymentIntentCreateParams.Builder b = PaymentIntentCreateParams.builder();
    if (has(p, "amount_minor")) b.amountMinor(p.get("amount_minor").getAsLong());
    if (has(p, "currency")) b.currency(p.get("currency").getAsString());
    if (has(p, "gateway_id")) b.gatewayId(p.get("gateway_id").getAsString());
    if (has(p, "metadata")) b.metadata(stringMap(p.getAsJsonObject("metadata")));
    if (has(p, "return_url")) b.returnUrl(p.get("return_url").getAsString());
    if (has(p, "capture_method")) b.captureMethod(p.get("capture_method").getAsString());
    if (has(p, "expires_in_seconds")) b.expiresInSeconds(p.get("expires_in_seconds").getAsLong());
    return b.build();
  }

  /** The API's customer fields as the client's builder takes them: a null removes a field. */
  private static CustomerParams customerParams(JsonObject p) {
    CustomerParams.Builder builder = CustomerParams.builder();
    if (p != null && p.has("email")) {
      if (p.get("email").isJsonNull()) builder.removeEmail();
      else builder.email(p.get("email").getAsString());
    }
    if (p != null && p.has("name")) {
      if (p.get("name").isJsonNull()) builder.removeName();
      else builder.name(p.get("name").getAsString());
    }
    if (p != null && p.has("metadata") && p.get("metadata").isJsonObject()) {
      for (Map.Entry<String, JsonElement> entry : p.getAsJsonObject("metadata").entrySet()) {
        builder.putMetadata(entry.getKey(), entry.getValue().getAsString());
      }
    }
    return builder.build();
  }

  private static RefundCreateParams refundParams(JsonObject p) {
    RefundCreateParams.Builder b = RefundCreateParams.builder(str(p, "payment_intent_id"));
    if (has(p, "amount_minor")) b.amountMinor(p.get("amount_minor").getAsLong());
    if (has(p, "metadata")) stringMap(p.getAsJsonObject("metadata")).forEach(b::putMetadata);
    return b.build();
  }

  private static TransactionListParams listParams(JsonObject p) {
    TransactionListParams.Builder b = TransactionListParams.builder();
    if (has(p, "status")) b.status(p.get("status").getAsString());
    if (has(p, "type")) b.type(p.get("type").getAsString());
    if (has(p, "from")) b.from(Instant.parse(p.get("from").getAsString()));
    if (has(p, "to")) b.to(Instant.parse(p.get("to").getAsString()));
    if (has(p, "limit")) b.limit(p.get("limit").getAsInt());
    return b.build();
  }

  private static Map<String, String> stringMap(JsonObject object) {
    Map<String, String> map = new java.util.LinkedHashMap<>();
    object.entrySet().forEach(e -> map.put(e.getKey(), e.getValue().getAsString()));
    return map;
  }

  private static RequestOptions options(JsonObject c) {
    return has(c, "idempotency_key") ? RequestOptions.idempotencyKey(str(c, "idempotency_key")) : RequestOptions.none();
  }

  private static JsonObject resource(ApiResource resource) {
    JsonObject result = new JsonObject();
    result.add("resource", resource.toJsonObject());
    return result;
  }

  private static JsonObject withKey(ApiResource resource) {
    JsonObject result = resource(resource);
    result.addProperty("idempotency_key", resource.lastResponse().flatMap(r -> r.idempotencyKey()).orElse(null));
    return result;
  }

  private static boolean has(JsonObject object, String member) {
    return object != null && object.has(member) && !object.get(member).isJsonNull();
  }

  private static String str(JsonObject object, String member) {
    return has(object, member) ? object.get(member).getAsString() : null;
  }

  private static JsonObject obj(JsonObject object, String member) {
    return has(object, member) && object.get(member).isJsonObject() ? object.getAsJsonObject(member) : new JsonObject();
  }

  private static String kindOf(RuntimeException e) {
    if (e instanceof ApiException) return "api";
    if (e instanceof ConnectionException) return "connection";
    if (e instanceof ConfigurationException || e instanceof NotConfigured) return "configuration";
    if (e instanceof SignatureVerificationException) return "signature_verification";
    if (e instanceof InvalidPayloadException) return "invalid_payload";
    // Not an exception the client documents: the suite fails on this kind, which is the point.
    return "unexpected";
  }

  private static JsonObject failure(JsonElement id, Exception e, String kind) {
    JsonObject error = new JsonObject();
    error.addProperty("kind", kind);
    error.addProperty("class", e.getClass().getSimpleName());
    error.addProperty("root", e instanceof PaygateException);
    if (e instanceof ApiException api) {
      error.addProperty("code", api.code());
      error.addProperty("status", api.status());
      error.add("request_id", api.requestId().<JsonElement>map(JsonPrimitive::new).orElse(JsonNull.INSTANCE));
      error.add("problem", api.problem());
    } else {
      error.add("code", JsonNull.INSTANCE);
      error.add("status", JsonNull.INSTANCE);
      error.add("request_id", JsonNull.INSTANCE);
      error.add("problem", JsonNull.INSTANCE);
    }
    error.addProperty("message", String.valueOf(e.getMessage()));
    JsonObject reply = new JsonObject();
    reply.add("id", id);
    reply.addProperty("ok", false);
    reply.add("error", error);
    return reply;
  }
}
