// Writes the shared fixtures every client's unit tests read (clients/conformance/fixtures/):
//
//   node --conditions=development --import tsx clients/conformance/record-fixtures.ts [--record]
//
// Always: contract-shapes.json, from packages/contract. With --record, also what the real service
// answers (started as real-service.mjs does): the 400 problem document of an invalid create, the 402
// of a declined confirm and the signed body of the payment_intent.failed event it sends to a real
// webhook endpoint. The
// late_capture_refunded fixture is derived from the recorded failed event (a late capture cannot
// be provoked on demand); contract-fixtures.test.ts checks every fixture against the contract.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contractShapes } from './contract-shapes.ts';
import { startRealService } from './real-service.mjs';

const fixtures = new URL('./fixtures/', import.meta.url);

function write(name: string, value: unknown): void {
  writeFileSync(new URL(name, fixtures), `${JSON.stringify(value, null, 2)}\n`);
  process.stderr.write(`wrote clients/conformance/fixtures/${name}\n`);
}

/** An idempotency key without a run of digits the card-data guard could take for a card number. */
function fixtureKey(): string {
  return `fixture_${randomBytes(9).toString('base64url')}`;
}

async function call(baseUrl: string, path: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function recordDecline(): Promise<void> {
  const events: string[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      events.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
  const { port } = receiver.address() as AddressInfo;
  const { env, stop } = await startRealService();
  try {
    const base = env.PAYGATE_BASE_URL;
    const admin = { 'x-admin-token': env.PAYGATE_ADMIN_TOKEN };
    const merchant = { 'x-api-key': env.PAYGATE_API_KEY };
    await call(base, `/admin/v1/merchants/${env.PAYGATE_MERCHANT_ID}/webhook-endpoints`, admin, {
      url: `http://127.0.0.1:${port}/webhooks`,
      livemode: false,
    });
    const created = await call(
      base,
      '/v1/payment-intents',
      { ...merchant, 'idempotency-key': fixtureKey() },
      { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', metadata: { order_id: 'ord_1001' } },
    );
    const invalid = await call(
      base,
      '/v1/payment-intents',
      { ...merchant, 'idempotency-key': fixtureKey() },
      { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', metadata: { order_id: 1001 } },
    );
    if (invalid.status !== 400) throw new Error(`an invalid create answered ${invalid.status}, not 400`);
    write('validation-error.problem.json', invalid.body);
    const declined = await call(base, `/v1/payment-intents/${created.body.id}/confirm`, merchant, {
      payment_method_token: 'tok_sim_decline',
    });
    if (declined.status !== 402) throw new Error(`confirm answered ${declined.status}, not 402`);
    write('declined-confirm.problem.json', declined.body);

    const deadline = Date.now() + 60_000;
    let failed: Record<string, unknown> | undefined;
    while (failed === undefined && Date.now() < deadline) {
      failed = events.map((raw) => JSON.parse(raw)).find((event) => event.type === 'payment_intent.failed');
      await new Promise((wait) => setTimeout(wait, 100));
    }
    if (failed === undefined) throw new Error('no payment_intent.failed delivery within 60 s');
    write('payment-intent-failed.event.json', failed);
    write('payment-intent-late-capture-refunded.event.json', {
      ...failed,
      id: `evt_${'L'.repeat(24)}`,
      type: 'payment_intent.late_capture_refunded',
    });
  } finally {
    await stop();
    receiver.close();
  }
}

write('contract-shapes.json', contractShapes());
if (process.argv.includes('--record')) await recordDecline();
