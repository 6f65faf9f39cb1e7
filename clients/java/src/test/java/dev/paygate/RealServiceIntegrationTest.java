package dev.paygate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
  void theLargestAmountRoundTripsExactly() {
    PaygateClient paygate = PaygateClient.builder().apiKey(env("PAYGATE_API_KEY")).baseUrl(env("PAYGATE_BASE_URL")).build();
    PaymentIntent intent =
        paygate.paymentIntents().create(PaymentIntentCreateParams.builder().amountMinor(999_999_999_999L).currency("JPY").gatewayId("sim").build());
    assertEquals(999_999_999_999L, paygate.paymentIntents().retrieve(intent.id()).amountMinor());
  }
}
