// The quick start: one test payment and a partial refund against your Paygate service, then the
// payment's transactions. PAYGATE_URL is the service (without /v1), PAYGATE_SECRET_KEY a sk_test_ key.
import dev.paygate.PaygateClient;
import dev.paygate.PaymentIntent;
import dev.paygate.PaymentIntentConfirmParams;
import dev.paygate.PaymentIntentCreateParams;
import dev.paygate.Refund;
import dev.paygate.RefundCreateParams;
import dev.paygate.RequestOptions;
import dev.paygate.TransactionListParams;
import java.util.UUID;

public final class Quickstart {
  public static void main(String[] args) {
    PaygateClient paygate = PaygateClient.builder()
        .apiKey(System.getenv("PAYGATE_SECRET_KEY"))
        .baseUrl(System.getenv().getOrDefault("PAYGATE_URL", "http://localhost:8080"))
        .build();

    // Keep the idempotency key with your order before the call: a lost create is repeated with it.
    PaymentIntent intent = paygate.paymentIntents().create(
        PaymentIntentCreateParams.builder()
            .amountMinor(1999).currency("USD").gatewayId("sim").putMetadata("order_id", "order_42")
            .build(),
        RequestOptions.idempotencyKey(UUID.randomUUID().toString()));
    // The simulator's approving test token; in a shop the browser component confirms instead.
    PaymentIntent paid = paygate.paymentIntents()
        .confirm(intent.id(), PaymentIntentConfirmParams.withToken("tok_sim_approve"));
    System.out.printf("payment %s %s %d %s%n", paid.id(), paid.status(), paid.amountMinor(), paid.currency());

    Refund refund = paygate.refunds().create(RefundCreateParams.builder(paid.id()).amountMinor(500).build());
    System.out.printf("refund %s %s %d%n", refund.id(), refund.status(), refund.amountMinor());

    long count = paygate.transactions().stream(TransactionListParams.builder().limit(100).build())
        .filter(txn -> txn.paymentIntentId().equals(paid.id()))
        .count();
    System.out.printf("transactions of %s: %d%n", paid.id(), count);
  }
}
