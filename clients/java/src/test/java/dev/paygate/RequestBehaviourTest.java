package dev.paygate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.paygate.ScriptedServer.Step;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The specification's "Reference client behavior", against a local misbehaving server. */
class RequestBehaviourTest {
  private static final String KEY = "sk_test_4eC39HqLyjWDarjtT1zdp7dc";
  private static final String INTENT =
      "{\"id\":\"pi_1\",\"object\":\"payment_intent\",\"amount_minor\":999999999999,\"amount_refunded_minor\":0,"
          + "\"currency\":\"USD\",\"status\":\"CREATED\",\"gateway_id\":\"sim\",\"metadata\":{\"order\":\"A-1\"},\"livemode\":false}";

  private final List<Long> waits = new ArrayList<>();
  private final AtomicInteger attempts = new AtomicInteger();

  private PaygateClient client(String baseUrl, int maxRetries) {
    Transport real = Transport.httpClient(Duration.ofSeconds(5));
    return PaygateClient.builder()
        .apiKey(KEY)
        .baseUrl(baseUrl)
        .timeout(Duration.ofSeconds(5))
        .maxRetries(maxRetries)
        .sleeper(d -> waits.add(d.toMillis()))
        .transport(
            (request, timeout) -> {
              attempts.incrementAndGet();
              return real.send(request, timeout);
            })
        .build();
  }

  private static PaymentIntentCreateParams createParams() {
    return PaymentIntentCreateParams.builder().amountMinor(999_999_999_999L).currency("USD").gatewayId("sim").build();
  }

  @Test
  void getIsRetriedOn500WithFullJitterBackoff() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(Step.problem(500, "internal_error", Map.of()), Step.problem(502, "internal_error", Map.of()), Step.json(200, INTENT))) {
      PaymentIntent intent = client(server.baseUrl(), 2).paymentIntents().retrieve("pi_1");
      assertEquals(999_999_999_999L, intent.amountMinor());
      assertEquals(3, attempts.get());
      assertEquals(2, waits.size());
      assertTrue(waits.get(0) >= 0 && waits.get(0) <= 500, "first wait " + waits);
      assertTrue(waits.get(1) >= 0 && waits.get(1) <= 1000, "second wait " + waits);
    }
  }

  @Test
  void backoffIsCappedAtEightSeconds() {
    for (int i = 0; i < 200; i++) {
      long wait = RequestSender.backoffMs(12);
      assertTrue(wait >= 0 && wait <= 8000, "wait " + wait);
    }
  }

  @Test
  void postIsNeverRetriedOnceAnswered() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(Step.problem(503, "gateway_unavailable", Map.of("Retry-After", "1")), Step.json(201, INTENT))) {
      GatewayUnavailableException error =
          assertThrows(GatewayUnavailableException.class, () -> client(server.baseUrl(), 2).paymentIntents().create(createParams()));
      assertEquals(503, error.status());
      assertEquals(1, attempts.get());
      assertTrue(waits.isEmpty());
    }
  }

  @Test
  void postWhoseConnectionDroppedIsNotRetriedAndKeepsItsKey() throws Exception {
    try (ScriptedServer server = new ScriptedServer(Step.drop(), Step.json(201, INTENT))) {
      ConnectionException error =
          assertThrows(
              ConnectionException.class,
              () -> client(server.baseUrl(), 2).paymentIntents().create(createParams(), RequestOptions.idempotencyKey("order-7")));
      assertEquals("order-7", error.idempotencyKey().orElseThrow());
      assertTrue(error.mayHaveBeenSent());
      assertEquals(1, server.seen.size());
    }
  }

  @Test
  void refusedConnectionIsRetriedEvenForPost() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    PaygateClient client = client("http://127.0.0.1:" + port, 2);
    ConnectionException error = assertThrows(ConnectionException.class, () -> client.paymentIntents().create(createParams()));
    assertFalse(error.mayHaveBeenSent());
    assertEquals(3, attempts.get());
    assertEquals(2, waits.size());
  }

  @Test
  void retryAfterIsHonouredFor429And503OnlyAndCappedAtOneMinute() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(
            Step.problem(429, "rate_limited", Map.of("Retry-After", "3")),
            Step.problem(503, "gateway_unavailable", Map.of("Retry-After", "120")),
            Step.problem(500, "internal_error", Map.of("Retry-After", "30")),
            Step.json(200, INTENT))) {
      client(server.baseUrl(), 3).paymentIntents().retrieve("pi_1");
      assertEquals(3000L, waits.get(0));
      assertEquals(60_000L, waits.get(1));
      assertTrue(waits.get(2) <= 2000, "a 500's Retry-After is ignored: " + waits);
    }
  }

  @Test
  void generatedIdempotencyKeyIsAUuidV4ReturnedWithTheResource() throws Exception {
    try (ScriptedServer server = new ScriptedServer(Step.json(201, INTENT), Step.json(201, INTENT))) {
      PaygateClient client = client(server.baseUrl(), 2);
      PaymentIntent first = client.paymentIntents().create(createParams());
      PaymentIntent second = client.paymentIntents().create(createParams());
      String sent = server.seen.get(0).header("Idempotency-Key");
      assertTrue(sent.matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), sent);
      assertEquals(sent, first.lastResponse().orElseThrow().idempotencyKey().orElseThrow());
      assertNotEquals(sent, second.lastResponse().orElseThrow().idempotencyKey().orElseThrow());
      assertTrue(server.seen.get(0).body().contains("\"amount_minor\":999999999999"), server.seen.get(0).body());
    }
  }

  @Test
  void createSendsTheCustomerAndWhetherToSaveTheMethod() {
    PaymentIntentCreateParams params =
        PaymentIntentCreateParams.builder()
            .amountMinor(1500)
            .currency("USD")
            .gatewayId("sim")
            .customerId("cus_1")
            .setupFutureUsage("off_session")
            .build();
    assertEquals("cus_1", params.toJson().get("customer_id").getAsString());
    assertEquals("off_session", params.toJson().get("setup_future_usage").getAsString());
    assertFalse(createParams().toJson().has("customer_id"));
  }

  @Test
  void confirmWithASavedMethodSendsItAndWhetherThePayerIsAbsent() {
    assertEquals(
        "{\"saved_payment_method_id\":\"spm_1\",\"off_session\":true}",
        PaymentIntentConfirmParams.offSession("spm_1").toJson().toString());
    assertEquals(
        "{\"saved_payment_method_id\":\"spm_1\"}",
        PaymentIntentConfirmParams.withSavedPaymentMethod("spm_1").toJson().toString());
  }

  @Test
  void userAgentCarriesTheRuntimeOnlyWithTelemetry() throws Exception {
    try (ScriptedServer server = new ScriptedServer(Step.json(200, INTENT), Step.json(200, INTENT))) {
      PaygateClient on = PaygateClient.builder().apiKey(KEY).baseUrl(server.baseUrl()).build();
      PaygateClient off = PaygateClient.builder().apiKey(KEY).baseUrl(server.baseUrl()).telemetry(false).build();
      on.paymentIntents().retrieve("pi_1");
      off.paymentIntents().retrieve("pi_1");
      assertEquals("paygate-java/1.0.0 java/" + System.getProperty("java.version"), server.seen.get(0).header("User-Agent"));
      assertEquals("paygate-java/1.0.0", server.seen.get(1).header("User-Agent"));
    }
  }

  @Test
  void listFollowsTheCursorWithoutExposingIt() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(
            Step.json(200, "{\"data\":[{\"id\":\"txn_1\",\"amount_minor\":1}],\"has_more\":true,\"next_cursor\":\"c2\"}"),
            Step.json(200, "{\"data\":[{\"id\":\"txn_2\",\"amount_minor\":2}],\"has_more\":false,\"next_cursor\":null}"))) {
      List<String> ids =
          client(server.baseUrl(), 2).transactions().stream(TransactionListParams.builder().limit(1).status("APPROVED").build())
              .map(Transaction::id)
              .collect(Collectors.toList());
      assertEquals(List.of("txn_1", "txn_2"), ids);
      assertEquals("/v1/transactions?limit=1&status=APPROVED", sortedQuery(server.seen.get(0).uri()));
      assertEquals("/v1/transactions?cursor=c2&limit=1&status=APPROVED", sortedQuery(server.seen.get(1).uri()));
    }
  }

  private static String sortedQuery(String uri) {
    String[] parts = uri.split("\\?", 2);
    return parts[0] + "?" + java.util.Arrays.stream(parts[1].split("&")).sorted().collect(Collectors.joining("&"));
  }

  @Test
  void everyCodeFamilyHasItsOwnClassUnderTheRoot() throws Exception {
    Map<String, Class<? extends ApiException>> expected =
        Map.ofEntries(
            Map.entry("validation_error", InvalidRequestException.class),
            Map.entry("invalid_api_key", AuthenticationException.class),
            Map.entry("card_declined", CardException.class),
            Map.entry("gateway_rejected", CardException.class),
            Map.entry("insufficient_permissions", PermissionException.class),
            Map.entry("resource_not_found", NotFoundException.class),
            Map.entry("idempotency_key_in_flight", IdempotencyException.class),
            Map.entry("invalid_state_transition", InvalidStateException.class),
            Map.entry("amount_exceeds_refundable", AmountException.class),
            Map.entry("amount_exceeds_capturable", AmountException.class),
            Map.entry("rate_limited", RateLimitException.class),
            Map.entry("internal_error", InternalServerException.class),
            Map.entry("gateway_unavailable", GatewayUnavailableException.class),
            Map.entry("some_future_code", ApiException.class));
    for (Map.Entry<String, Class<? extends ApiException>> entry : expected.entrySet()) {
      try (ScriptedServer server = new ScriptedServer(Step.problem(418, entry.getKey(), Map.of()))) {
        PaygateException error = assertThrows(PaygateException.class, () -> client(server.baseUrl(), 0).refunds().retrieve("re_1"));
        assertEquals(entry.getValue(), error.getClass(), entry.getKey());
        ApiException api = assertInstanceOf(ApiException.class, error);
        assertEquals(entry.getKey(), api.code());
        assertEquals(418, api.status());
        assertEquals("req_" + entry.getKey(), api.requestId().orElseThrow());
        assertEquals("999999999999", api.problem().get("amount_minor").toString(), "integers stay integers");
      }
    }
  }

  @Test
  void oneClientServesManyThreads() throws Exception {
    Step[] answers = new Step[40];
    java.util.Arrays.fill(answers, Step.json(200, INTENT));
    try (ScriptedServer server = new ScriptedServer(answers)) {
      PaygateClient shared = client(server.baseUrl(), 0);
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
      try {
        List<java.util.concurrent.Future<Long>> results = new ArrayList<>();
        for (int i = 0; i < 40; i++) results.add(pool.submit(() -> shared.paymentIntents().retrieve("pi_1").amountMinor()));
        for (java.util.concurrent.Future<Long> result : results) assertEquals(999_999_999_999L, result.get());
      } finally {
        pool.shutdownNow();
      }
      assertEquals(40, server.seen.size());
      assertEquals(40, attempts.get());
    }
  }

  @Test
  void aDisputeIsRetrievedByIdWithTypedAccessors() throws Exception {
    String dispute =
        "{\"id\":\"dp_1\",\"object\":\"dispute\",\"payment_intent_id\":\"pi_1\",\"amount_minor\":999999999999,"
            + "\"currency\":\"EUR\",\"reason\":\"fraudulent\",\"status\":\"NEEDS_RESPONSE\",\"evidence_due_by\":null,"
            + "\"gateway_id\":\"stripe\",\"livemode\":false,\"version\":1,\"created_at\":\"2026-11-26T10:00:00.000Z\","
            + "\"updated_at\":\"2026-11-26T10:00:00.000Z\"}";
    try (ScriptedServer server = new ScriptedServer(Step.json(200, dispute))) {
      Dispute read = client(server.baseUrl(), 0).disputes().retrieve("dp_1");
      assertEquals("/v1/disputes/dp_1", server.seen.get(0).uri());
      assertEquals(999_999_999_999L, read.amountMinor());
      assertEquals("NEEDS_RESPONSE", read.status());
      assertEquals("fraudulent", read.reason());
      assertTrue(read.evidenceDueBy().isEmpty());
      assertEquals(1L, read.version());
    }
  }

  @Test
  void misconfigurationFailsLocally() {
    assertThrows(ConfigurationException.class, () -> PaygateClient.builder().apiKey("pk_test_abc").build());
    assertThrows(ConfigurationException.class, () -> PaygateClient.builder().apiKey(KEY).baseUrl("ftp://x").build());
    assertThrows(ConfigurationException.class, () -> PaygateClient.builder().apiKey(KEY).timeout(Duration.ZERO).build());
    assertThrows(ConfigurationException.class, () -> PaygateClient.builder().apiKey(KEY).maxRetries(-1).build());
  }
}
