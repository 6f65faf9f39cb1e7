import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { ConfigError } from '../config.ts';
import { readText } from '../config-values.ts';
import { DEFAULT_BASE_URL } from './listen-command.ts';

interface Api {
  post(path: string, body: unknown): Promise<{ id: string; status: string }>;
}

/**
 * What `paygate trigger <type>` does through the public API (test mode, the simulated gateway),
 * so that the service itself writes the event: real objects, the same path as a real payment.
 * Event types that only time makes happen (expired, a late capture) are not triggerable.
 */
const scenarios = {
  'payment_intent.succeeded': async (api: Api) => [await payWith(api, 'tok_sim_approve')],
  'payment_intent.failed': async (api: Api) => [await payWith(api, 'tok_sim_decline')],
  'payment_intent.requires_action': async (api: Api) => [await payWith(api, 'tok_sim_challenge')],
  'payment_intent.canceled': async (api: Api) => {
    const intent = await createIntent(api);
    return [intent.id, (await api.post(`/v1/payment-intents/${intent.id}/cancel`, {})).id];
  },
  'refund.succeeded': async (api: Api) => {
    const intentId = await payWith(api, 'tok_sim_approve');
    const refund = await api.post('/v1/refunds', { payment_intent_id: intentId });
    return [intentId, refund.id];
  },
} as const;

export type TriggerableEventType = keyof typeof scenarios;
export const triggerableEventTypes = Object.keys(scenarios) as TriggerableEventType[];

function createIntent(api: Api) {
  return api.post('/v1/payment-intents', {
    amount_minor: 2000,
    currency: 'USD',
    gateway_id: 'sim',
    metadata: { created_by: 'paygate trigger' },
  });
}

async function payWith(api: Api, token: string): Promise<string> {
  const intent = await createIntent(api);
  // A decline answers 402 with the failed intent: the event happened, which is what was asked.
  await api.post(`/v1/payment-intents/${intent.id}/confirm`, { payment_method_token: token });
  return intent.id;
}

function httpApi(baseUrl: string, apiKey: string): Api {
  return {
    async post(path, body) {
      const response = await request(new URL(path, baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': randomUUID() },
        body: JSON.stringify(body),
      });
      const text = await response.body.text();
      const json = JSON.parse(text) as {
        id?: string;
        status?: unknown;
        payment_intent?: { id: string; status: string };
      };
      if (response.statusCode === 402 && json.payment_intent) return json.payment_intent;
      if (response.statusCode !== 200 || typeof json.id !== 'string') {
        throw new ConfigError(`POST ${path} answered ${response.statusCode}: ${text}`);
      }
      return { id: json.id, status: String(json.status) };
    },
  };
}

/** Makes `type` happen in test mode; resolves to the ids of the objects it created. */
export async function trigger(options: { type: string; apiKey: string; baseUrl: string }): Promise<string[]> {
  if (!(options.type in scenarios)) {
    throw new ConfigError(
      `cannot trigger '${options.type}'; triggerable event types: ${triggerableEventTypes.join(', ')}`,
    );
  }
  const scenario = scenarios[options.type as TriggerableEventType];
  return scenario(httpApi(options.baseUrl, options.apiKey));
}

export async function triggerCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'api-key': { type: 'string' }, 'base-url': { type: 'string' } },
  });
  const type = positionals[0];
  if (!type) throw new ConfigError(`an event type is required: ${triggerableEventTypes.join(', ')}`);
  const apiKey = values['api-key'] ?? readText(process.env, 'PAYGATE_API_KEY');
  if (!apiKey?.startsWith('sk_test_')) {
    throw new ConfigError('a secret test key is required: --api-key sk_test_... or PAYGATE_API_KEY');
  }
  const baseUrl = values['base-url'] ?? readText(process.env, 'PAYGATE_BASE_URL') ?? DEFAULT_BASE_URL;
  const ids = await trigger({ type, apiKey, baseUrl });
  process.stdout.write(`Triggered ${type}: created ${ids.join(', ')}\n`);
  return 0;
}
