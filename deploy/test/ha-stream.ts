// The payment stream of the failover test: customers create and confirm payments and refund some,
// over both API processes, and the stream remembers what was answered 2xx and when writes were
// answered, to measure the seconds without writes around a fault.
import { randomUUID } from 'node:crypto';

const CUSTOMERS = 4;
const REQUEST_TIMEOUT_MS = 30_000;

export interface Stream {
  /** Each payment answered 2xx, with the last status answered. */
  intents: Map<string, string>;
  /** Each refund answered 2xx, with the status answered. */
  refunds: Map<string, string>;
  answeredWrites(): number;
  failures(): number;
  /** When the first write started after `at` was answered 2xx (performance.now()), or null. */
  firstWriteStartedAfter(at: number): number | null;
  stop(): Promise<void>;
}

export function startStream(apiUrls: string[], apiKey: string): Stream {
  const intents = new Map<string, string>();
  const refunds = new Map<string, string>();
  const writes: { startedAt: number; answeredAt: number }[] = [];
  let failures = 0;
  let running = true;
  let turn = 0;

  const post = async (path: string, body: unknown, idempotencyKey?: string) => {
    const url = apiUrls[turn++ % apiUrls.length];
    const startedAt = performance.now();
    try {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: {
          'x-api-key': apiKey,
          'content-type': 'application/json',
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (!response.ok) {
        failures += 1;
        return null;
      }
      writes.push({ startedAt, answeredAt: performance.now() });
      return json;
    } catch {
      failures += 1;
      return null;
    }
  };

  const customer = async () => {
    while (running) {
      // A UUID, as every reference client sends: 24 random hex characters hold a 13-to-19-digit run
      // that passes Luhn about once in 1,700 keys (58 of 100,000), which the card guard refuses.
      const key = randomUUID();
      const created = await post(
        '/v1/payment-intents',
        { amount_minor: 1000 + Math.floor(Math.random() * 9000), currency: 'USD', gateway_id: 'sim' },
        key,
      );
      if (!created) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      const id = String(created.id);
      intents.set(id, String(created.status));
      const confirmed = await post(`/v1/payment-intents/${id}/confirm`, {
        payment_method_token: 'tok_sim_approve',
      });
      if (confirmed) intents.set(id, String(confirmed.status));
      if (confirmed?.status === 'SUCCEEDED' && Math.random() < 0.5) {
        const refund = await post(
          '/v1/refunds',
          { payment_intent_id: id, amount_minor: 500 },
          `${key}-refund`,
        );
        if (refund) refunds.set(String(refund.id), String(refund.status));
      }
    }
  };
  const customers = Array.from({ length: CUSTOMERS }, customer);

  return {
    intents,
    refunds,
    answeredWrites: () => writes.length,
    failures: () => failures,
    firstWriteStartedAfter(at) {
      const after = writes.filter((w) => w.startedAt >= at).map((w) => w.answeredAt);
      return after.length ? Math.min(...after) : null;
    },
    async stop() {
      running = false;
      await Promise.all(customers);
    },
  };
}
