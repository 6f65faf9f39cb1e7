package dev.paygate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import dev.paygate.ScriptedServer.Step;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Why a payment failed: {@code last_payment_error} typed on the intent, in the 402 and in the event. */
class LastPaymentErrorTest {
  private static final String SECRET = "whsec_GDjVrE0TlSTcNjcTF_Db8xVJ0_kHp1_DCPniWu0bQ-c";
  private static final long NOW = 1_767_225_600L;

  private static PaygateClient client(String baseUrl) {
    return PaygateClient.builder().apiKey("sk_test_4eC39HqLyjWDarjtT1zdp7dc").baseUrl(baseUrl).sleeper(d -> {}).build();
  }

  private static Event construct(String payload) {
    String header = Webhook.generateTestHeader(payload, SECRET, NOW);
    Clock clock = Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC);
    return Webhook.constructEvent(payload, header, List.of(SECRET), Webhook.DEFAULT_TOLERANCE, clock);
  }

  @Test
  void theRecordedDeclinedConfirmThrowsACardExceptionWhoseIntentSaysWhy() throws Exception {
    JsonObject problem = Fixtures.json("declined-confirm.problem.json");
    String id = problem.getAsJsonObject("payment_intent").get("id").getAsString();
    try (ScriptedServer server =
        new ScriptedServer(new Step(402, Map.of("Content-Type", "application/problem+json"), problem.toString()))) {
      CardException declined =
          assertThrows(
              CardException.class,
              () -> client(server.baseUrl()).paymentIntents().confirm(id, PaymentIntentConfirmParams.withToken("tok_sim_decline")));
      PaymentIntent intent = declined.paymentIntent().orElseThrow();
      assertEquals("FAILED", intent.status());
      LastPaymentError failure = intent.lastPaymentError().orElseThrow();
      assertEquals(LastPaymentError.CARD_DECLINED, failure.code());
      assertEquals(Optional.empty(), failure.declineCode());
      assertEquals(Optional.empty(), failure.gatewayCode());
      assertEquals("The card was declined.", failure.message());
    }
  }

  @Test
  void aDeclineCodeAndMembersAddedLaterAreReadAndKept() throws Exception {
    JsonObject intent = Fixtures.json("declined-confirm.problem.json").getAsJsonObject("payment_intent");
    JsonObject error = intent.getAsJsonObject("last_payment_error");
    error.addProperty("decline_code", "insufficient_funds");
    error.addProperty("gateway_code", "12");
    error.addProperty("advice", "try_later");
    try (ScriptedServer server = new ScriptedServer(Step.json(200, intent.toString()))) {
      PaymentIntent read = client(server.baseUrl()).paymentIntents().retrieve(intent.get("id").getAsString());
      LastPaymentError failure = read.lastPaymentError().orElseThrow();
      assertEquals(Optional.of("insufficient_funds"), failure.declineCode());
      assertEquals(Optional.of("12"), failure.gatewayCode());
      assertTrue(LastPaymentError.DECLINE_CODES.contains(failure.declineCode().orElseThrow()));
      assertEquals("try_later", failure.toJsonObject().get("advice").getAsString());
      assertEquals(intent, read.toJsonObject());
    }
  }

  @Test
  void anIntentThatDidNotFailOrPredatesTheFieldHasNone() throws Exception {
    JsonObject intent = Fixtures.json("declined-confirm.problem.json").getAsJsonObject("payment_intent");
    intent.add("last_payment_error", JsonNull.INSTANCE);
    assertTrue(PaymentIntent.fromJson(intent).lastPaymentError().isEmpty());
    intent.remove("last_payment_error");
    assertTrue(PaymentIntent.fromJson(intent).lastPaymentError().isEmpty());
  }

  @Test
  void theRecordedPaymentIntentFailedEventCarriesTheTypedFailure() throws Exception {
    Event event = construct(Fixtures.text("payment-intent-failed.event.json"));
    assertEquals("payment_intent.failed", event.type());
    assertTrue(event.isKnownType());
    LastPaymentError failure = event.paymentIntent().lastPaymentError().orElseThrow();
    assertEquals("card_declined", failure.code());
    assertEquals(Optional.empty(), failure.declineCode());
    assertEquals("The card was declined.", failure.message());
  }

  @Test
  void lateCaptureRefundedIsAKnownEventCarryingTheIntent() throws Exception {
    Event event = construct(Fixtures.text("payment-intent-late-capture-refunded.event.json"));
    assertEquals("payment_intent.late_capture_refunded", event.type());
    assertTrue(event.isKnownType());
    assertEquals("FAILED", event.paymentIntent().status());
  }

  @Test
  void theIntentReadsEveryContractFieldOfTheRecordedOne() throws Exception {
    PaymentIntent intent = PaymentIntent.fromJson(Fixtures.json("declined-confirm.problem.json").getAsJsonObject("payment_intent"));
    assertEquals(2500L, intent.amountMinor());
    assertEquals(Optional.empty(), intent.returnUrl());
    assertTrue(intent.expiresAt().compareTo(intent.createdAt()) > 0, "expires after creation");
    assertEquals(Duration.ofDays(1), Duration.between(Instant.parse(intent.createdAt()), Instant.parse(intent.expiresAt())));
  }
}
