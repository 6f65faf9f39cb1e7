// The quick start: one test payment and a partial refund against your Paygate service, then the
// payment's transactions. PAYGATE_URL is the service (without /v1), PAYGATE_SECRET_KEY a sk_test_ key.
import { randomUUID } from 'node:crypto';
import { Paygate } from '@paygate/node';

const paygate = new Paygate({
  apiKey: process.env.PAYGATE_SECRET_KEY ?? '',
  baseUrl: process.env.PAYGATE_URL ?? 'http://localhost:8080',
});

// Keep the idempotency key with your order before the call: a lost create is repeated with it.
const intent = await paygate.paymentIntents.create(
  { amount_minor: 1999, currency: 'USD', gateway_id: 'sim', metadata: { order_id: 'order_42' } },
  { idempotencyKey: randomUUID() },
);
// The simulator's approving test token; in a shop the browser component confirms instead.
const paid = await paygate.paymentIntents.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
console.log(`payment ${paid.id} ${paid.status} ${paid.amount_minor} ${paid.currency}`);

const refund = await paygate.refunds.create({ payment_intent_id: paid.id, amount_minor: 500 });
console.log(`refund ${refund.id} ${refund.status} ${refund.amount_minor}`);

let count = 0;
for await (const txn of paygate.transactions.list({ limit: 100 })) {
  if (txn.payment_intent_id === paid.id) count += 1;
}
console.log(`transactions of ${paid.id}: ${count}`);
