package dev.paygate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * paygate-java against the real service of this repository, started by
 * clients/conformance/with-service.mjs (run-tests does it), which sets PAYGATE_BASE_URL and
 * PAYGATE_API_KEY. Without them the test fails: it is never silently skipped.
 */
class RealServiceIntegrationTest {
  private static String env(String name) {
    String value = System.getenv(name);
    assertNotNull(value, name + " is not set: run through clients/java/run-tests (with-service.mjs)");
    return value;
  }

  @Test
  void createConfirmRefundAndList() {
    PaygateClient paygate = PaygateClient.builder().apiKey(env("PAYGATE_API_KEY")).baseUrl(env("PAYGATE_BASE_URL")).build();
    PaymentIntent intent =
        paygate.paymentIntents()
            .create(PaymentIntentCreateParams.builder().amountMinor(5000).currency("EUR").gatewayId("sim").putMetadata("order", "J-1").build());
    assertEquals("CREATED", intent.status());
    assertEquals("J-1", intent.metadata().get("order"));
    PaymentIntent confirmed = paygate.paymentIntents().confirm(intent.id(), PaymentIntentConfirmParams.withToken("tok_sim_approve"));
    assertEquals("SUCCEEDED", confirmed.status());

    Refund refund = paygate.refunds().create(RefundCreateParams.builder(intent.id()).amountMinor(1200).build());
    assertEquals(1200L, refund.amountMinor());
    assertEquals(1200L, paygate.refunds().retrieve(refund.id()).amountMinor());
    assertEquals(1200L, paygate.paymentIntents().retrieve(intent.id()).amountRefundedMinor());

    List<String> lines =
        paygate.transactions().stream(TransactionListParams.builder().limit(1).build())
            .filter(t -> t.paymentIntentId().equals(intent.id()))
            .map(t -> t.type() + ":" + t.amountMinor())
            .sorted()
            .collect(Collectors.toList());
    assertEquals(List.of("PAYMENT:5000", "REFUND:1200"), lines);

    InvalidStateException cancel = assertThrows(InvalidStateException.class, () -> paygate.paymentIntents().cancel(intent.id()));
    assertEquals(409, cancel.status());
    assertTrue(cancel.requestId().orElseThrow().startsWith("req_"));
    assertThrows(AmountException.class, () -> paygate.refunds().create(RefundCreateParams.builder(intent.id()).amountMinor(3801).build()));
  }

  @Test
  void aManualIntentIsAuthorisedThenCapturedInPart() {
    PaygateClient paygate = PaygateClient.builder().apiKey(env("PAYGATE_API_KEY")).baseUrl(env("PAYGATE_BASE_URL")).build();
    PaymentIntent intent =
        paygate.paymentIntents()
            .create(PaymentIntentCreateParams.builder().amountMinor(8000).currency("EUR").gatewayId("sim").captureMethod("manual").build());
    assertEquals("manual", intent.captureMethod());
    PaymentIntent authorised = paygate.paymentIntents().confirm(intent.id(), PaymentIntentConfirmParams.withToken("tok_sim_approve"));
    assertEquals(PaymentIntent.STATUS_REQUIRES_CAPTURE, authorised.status());
    assertEquals(8000L, authorised.amountCapturableMinor());
    assertTrue(authorised.captureBefore().isPresent());
    AmountException tooMuch =
        assertThrows(
            AmountException.class,
            () -> paygate.paymentIntents().capture(intent.id(), PaymentIntentCaptureParams.amountMinor(8001), RequestOptions.none()));
    assertEquals("amount_exceeds_capturable", tooMuch.code());
    RequestOptions keyed = RequestOptions.idempotencyKey("java-capture-" + intent.id());
    PaymentIntent captured = paygate.paymentIntents().capture(intent.id(), PaymentIntentCaptureParams.amountMinor(6000), keyed);
    assertEquals(PaymentIntent.STATUS_SUCCEEDED, captured.status());
    assertEquals(6000L, captured.amountCapturedMinor());
    PaymentIntent again = paygate.paymentIntents().capture(intent.id(), PaymentIntentCaptureParams.amountMinor(6000), keyed);
    assertTrue(again.lastResponse().orElseThrow().replayed());
  }

  @Test
  void aDeclinedConfirmSaysWhyOnTheIntent() {
    PaygateClient paygate = PaygateClient.builder().apiKey(env("PAYGATE_API_KEY")).baseUrl(env("PAYGATE_BASE_URL")).build();
    PaymentIntent intent = paygate.paymentIntents().create(PaymentIntentCreateParams.builder().amountMinor(2500).currency("USD").gatewayId("sim").build());
    CardException declined =
        assertThrows(CardException.class, () -> paygate.paymentIntents().confirm(intent.id(), PaymentIntentConfirmParams.withToken("tok_sim_decline")));
    assertEquals("card_declined", declined.code());
    for (PaymentIntent failed : List.of(declined.paymentIntent().orElseThrow(), paygate.paymentIntents().retrieve(intent.id()))) {
      assertEquals("FAILED", failed.status());
      LastPaymentError failure = failed.lastPaymentError().orElseThrow();
      assertEquals(LastPaymentError.CARD_DECLINED, failure.code());
      assertEquals(Optional.empty(), failure.declineCode()); // the simulated gateway gives no reason of its own
      assertFalse(failure.message().isEmpty());
    }
    PaymentIntent open = paygate.paymentIntents().create(PaymentIntentCreateParams.builder().amountMinor(2500).currency("USD").gatewayId("sim").build());
    assertTrue(paygate.paymentIntents().retrieve(open.id()).lastPaymentError().isEmpty());
  }

  @Test
  void aValidationErrorNamesTheFieldTyped() {
    PaygateClient paygate = PaygateClient.builder().apiKey(env("PAYGATE_API_KEY")).baseUrl(env("PAYGATE_BASE_URL")).build();
    InvalidRequestException invalid =
        assertThrows(
            InvalidRequestException.class,
            () -> paygate.paymentIntents().create(PaymentIntentCreateParams.builder().amountMinor(0).currency("USD").gatewayId("sim").build()));
    assertEquals("validation_error", invalid.code());
    assertEquals(List.of("amount_minor"), invalid.fieldErrors().stream().map(FieldError::field).collect(Collectors.toList()));
  }

  @Test
  void aRealPaymentIntentFailedDeliverySaysWhy() throws Exception {
    List<String> bodies = new CopyOnWriteArrayList<>();
    List<String> headers = new CopyOnWriteArrayList<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/webhooks",
        exchange -> {
          bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          headers.add(exchange.getRequestHeaders().getFirst("Service-Signature"));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
    try {
      String endpoint =
          "{\"url\":\"http://127.0.0.1:" + receiver.getAddress().getPort() + "/webhooks\",\"livemode\":false}";
      HttpResponse<String> created =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(env("PAYGATE_BASE_URL") + "/admin/v1/merchants/" + env("PAYGATE_MERCHANT_ID") + "/webhook-endpoints"))
                      .header("X-Admin-Token", env("PAYGATE_ADMIN_TOKEN"))
                      .header("Content-Type", "application/json")
                      .POST(HttpRequest.BodyPublishers.ofString(endpoint))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(201, created.statusCode(), created.body());
      String secret = JsonParser.parseString(created.body()).getAsJsonObject().get("secret").getAsString();

      PaygateClient paygate = PaygateClient.builder().apiKey(env("PAYGATE_API_KEY")).baseUrl(env("PAYGATE_BASE_URL")).build();
      PaymentIntent intent = paygate.paymentIntents().create(PaymentIntentCreateParams.builder().amountMinor(4300).currency("USD").gatewayId("sim").build());
      assertThrows(CardException.class, () -> paygate.paymentIntents().confirm(intent.id(), PaymentIntentConfirmParams.withToken("tok_sim_reject")));

      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      Event failed = null;
      while (failed == null) {
        assertTrue(System.nanoTime() < deadline, "no payment_intent.failed delivery within 60 s");
        for (int i = 0; i < bodies.size() && failed == null; i++) {
          Event event = Webhook.constructEvent(bodies.get(i), headers.get(i), List.of(secret));
          if (event.type().equals("payment_intent.failed") && event.paymentIntent().id().equals(intent.id())) failed = event;
        }
        if (failed == null) Thread.sleep(50);
      }
      LastPaymentError failure = failed.paymentIntent().lastPaymentError().orElseThrow();
      assertEquals(LastPaymentError.GATEWAY_REJECTED, failure.code());
      assertFalse(failure.message().isEmpty());
    } finally {
      receiver.stop(0);
    }
  }

  @Test
  void theLargestAmountRoundTripsExactly() {
    PaygateClient paygate = PaygateClient.builder().apiKey(env("PAYGATE_API_KEY")).baseUrl(env("PAYGATE_BASE_URL")).build();
    PaymentIntent intent =
        paygate.paymentIntents().create(PaymentIntentCreateParams.builder().amountMinor(999_999_999_999L).currency("JPY").gatewayId("sim").build());
    assertEquals(999_999_999_999L, paygate.paymentIntents().retrieve(intent.id()).amountMinor());
  }
}
