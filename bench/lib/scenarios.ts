import type { RequestSpec } from 'autocannon';
import { runLoad } from './load.ts';
import type { BenchMerchant } from './service.ts';

/** The body of every create: the smallest valid one, as most integrations send. */
export const CREATE_BODY = JSON.stringify({ amount_minor: 2500, currency: 'USD', gateway_id: 'sim' });
export const CONFIRM_BODY = JSON.stringify({ payment_method_token: 'tok_sim_approve' });

function jsonHeaders(merchant: BenchMerchant, extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-api-key': merchant.secretKey, 'content-type': 'application/json', ...extra };
}

/** Pulls the intent id out of a create response without parsing it (the id is the first field). */
export function intentIdOf(body: string): string | null {
  const prefix = '{"id":"';
  if (!body.startsWith(prefix)) return null;
  const end = body.indexOf('"', prefix.length);
  return end > 0 ? body.slice(prefix.length, end) : null;
}

/**
 * Creates with a fresh Idempotency-Key each (autocannon's `[<id>]` replacement, applied to the
 * whole request, headers included). `onId` receives each created intent's id.
 */
export function createRequests(merchant: BenchMerchant, onId?: (id: string) => void): RequestSpec[] {
  return [
    {
      method: 'POST',
      path: '/v1/payment-intents',
      headers: jsonHeaders(merchant, { 'idempotency-key': 'bench-[<id>]' }),
      body: CREATE_BODY,
      ...(onId
        ? {
            onResponse: (status: number, body: string) => {
              const id = status === 200 ? intentIdOf(body) : null;
              if (id) onId(id);
            },
          }
        : {}),
    },
  ];
}

/** The same create, under one key that already has a stored response. */
export function replayRequests(merchant: BenchMerchant, idempotencyKey: string): RequestSpec[] {
  return [
    {
      method: 'POST',
      path: '/v1/payment-intents',
      headers: jsonHeaders(merchant, { 'idempotency-key': idempotencyKey }),
      body: CREATE_BODY,
    },
  ];
}

export function retrieveRequests(merchant: BenchMerchant, intentId: string): RequestSpec[] {
  return [
    { method: 'GET', path: `/v1/payment-intents/${intentId}`, headers: { 'x-api-key': merchant.secretKey } },
  ];
}

export function listRequests(merchant: BenchMerchant): RequestSpec[] {
  return [
    { method: 'GET', path: '/v1/transactions?limit=100', headers: { 'x-api-key': merchant.secretKey } },
  ];
}

/** Intents in CREATED handed out one per confirm; `reused` counts hand-outs after the pool ran dry. */
export class IntentPool {
  private next = 0;
  reused = 0;
  constructor(private readonly ids: string[]) {}
  get size(): number {
    return this.ids.length;
  }
  take(): string {
    if (this.next >= this.ids.length) this.reused += 1;
    const id = this.ids[this.next % this.ids.length];
    this.next += 1;
    if (id === undefined) throw new Error('the intent pool is empty');
    return id;
  }
}

export function confirmRequests(merchant: BenchMerchant, pool: IntentPool): RequestSpec[] {
  return [
    {
      method: 'POST',
      headers: jsonHeaders(merchant),
      body: CONFIRM_BODY,
      setupRequest: (request) => ({ ...request, path: `/v1/payment-intents/${pool.take()}/confirm` }),
    },
  ];
}

/**
 * The full flow on each connection: create (fresh key), then confirm that intent. The webhook
 * that completes the payment is counted by the receiver.
 */
export function flowRequests(merchant: BenchMerchant): RequestSpec[] {
  return [
    {
      method: 'POST',
      path: '/v1/payment-intents',
      headers: jsonHeaders(merchant, { 'idempotency-key': 'flow-[<id>]' }),
      body: CREATE_BODY,
      onResponse: (status, body, context) => {
        context.intentId = status === 200 ? intentIdOf(body) : null;
      },
    },
    {
      method: 'POST',
      headers: jsonHeaders(merchant),
      body: CONFIRM_BODY,
      setupRequest: (request, context) =>
        typeof context.intentId === 'string'
          ? { ...request, path: `/v1/payment-intents/${context.intentId}/confirm` }
          : undefined,
    },
  ];
}

/** Two seconds of creates before measuring: the service has compiled its hot paths and filled its pool. */
export async function warmUp(baseUrl: string, merchant: BenchMerchant): Promise<void> {
  await runLoad({
    url: baseUrl,
    connections: 10,
    durationSeconds: 2,
    requests: createRequests(merchant),
    idReplacement: true,
  });
}
