// Stripe's books for reconciliation: its list API (`GET /v1/payment_intents` and `GET /v1/refunds`
// with `created[gte]`/`created[lt]`, 100 a page, `starting_after` the last id of the page), read to
// the end and checked entry by entry. An entry we cannot read fails the whole read: a comparison
// over a partial list would report differences that are not there.
import type { BookCharge, BookRefund, GatewayBooks } from '../connector.ts';
import type { GatewayHttpReply, GatewayHttpRequest } from '../http-executor.ts';
import { jsonObjectOf, stringOf } from '../reply-meaning.ts';
import { KEY_METADATA, STRIPE_API_VERSION, type StripeAccount } from './wire.ts';

type Json = Record<string, unknown>;

const PAGE_SIZE = 100;
/** More pages than this for one window means something is wrong (a list that never ends). */
const MAX_PAGES = 10_000;

/**
 * A PaymentIntent's status as the books compare it. `requires_payment_method` is where Stripe puts
 * an intent after a declined attempt, `canceled` one it gave up: neither took money.
 */
const chargeStatusOf: Readonly<Record<string, BookCharge['status']>> = {
  succeeded: 'succeeded',
  processing: 'pending',
  requires_capture: 'pending',
  requires_confirmation: 'pending',
  requires_action: 'requires_action',
  requires_payment_method: 'failed',
  canceled: 'failed',
};

const refundStatusOf: Readonly<Record<string, BookRefund['status']>> = {
  succeeded: 'succeeded',
  pending: 'pending',
  requires_action: 'pending',
  failed: 'failed',
  canceled: 'failed',
};

/** `GET /v1/<resource>?created[gte]=&created[lt]=&limit=100[&starting_after=]`. */
export function buildListPage(
  account: StripeAccount,
  resource: 'payment_intents' | 'refunds',
  window: { from: Date; to: Date },
  startingAfter: string | null,
  pageSize = PAGE_SIZE,
): GatewayHttpRequest {
  // Stripe counts in whole seconds: the window is widened to whole seconds on both sides.
  const query = new URLSearchParams({
    'created[gte]': String(Math.floor(window.from.getTime() / 1000)),
    'created[lt]': String(Math.ceil(window.to.getTime() / 1000)),
    limit: String(pageSize),
  });
  if (startingAfter) query.set('starting_after', startingAfter);
  return {
    method: 'GET',
    url: `${account.baseUrl.replace(/\/+$/, '')}/v1/${resource}?${query.toString()}`,
    headers: {
      authorization: `Bearer ${account.secretKey}`,
      'stripe-version': STRIPE_API_VERSION,
      accept: 'application/json',
    },
  };
}

function text(entry: Json, name: string): string {
  const value = stringOf(entry[name]);
  if (!value) throw new Error(`stripe list entry without ${name}`);
  return value;
}

function amountOf(entry: Json, name: string): number {
  const value = entry[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new Error(`stripe list entry without ${name}`);
  return value;
}

/**
 * Our key, from the metadata every Paygate request carries; an object made outside Paygate has
 * none and is named by Stripe's id, which no key of ours ever equals.
 */
function keyOf(entry: Json, id: string): string {
  return stringOf((entry.metadata as Json | undefined)?.[KEY_METADATA]) ?? `stripe:${id}`;
}

export function bookChargeOf(entry: Json): BookCharge {
  const id = text(entry, 'id');
  const status = chargeStatusOf[text(entry, 'status')];
  if (!status) throw new Error(`stripe payment intent ${id} in status ${String(entry.status)}`);
  return {
    gatewayReference: id,
    idempotencyKey: keyOf(entry, id),
    // What was taken when it succeeded (a partial capture differs), else what was asked.
    amountMinor:
      status === 'succeeded' && typeof entry.amount_received === 'number'
        ? amountOf(entry, 'amount_received')
        : amountOf(entry, 'amount'),
    currency: text(entry, 'currency').toUpperCase(),
    status,
    createdAt: new Date(amountOf(entry, 'created') * 1000),
  };
}

export function bookRefundOf(entry: Json): BookRefund {
  const id = text(entry, 'id');
  const status = refundStatusOf[text(entry, 'status')];
  if (!status) throw new Error(`stripe refund ${id} in status ${String(entry.status)}`);
  return {
    gatewayReference: id,
    idempotencyKey: keyOf(entry, id),
    chargeReference: stringOf(entry.payment_intent) ?? text(entry, 'charge'),
    amountMinor: amountOf(entry, 'amount'),
    currency: text(entry, 'currency').toUpperCase(),
    status,
    createdAt: new Date(amountOf(entry, 'created') * 1000),
  };
}

/** One page of a list: its objects and whether more follow; throws on anything else. */
export function parseListPage(reply: GatewayHttpReply, resource: string): { data: Json[]; hasMore: boolean } {
  if (reply.kind !== 'answer') throw new Error(`stripe ${resource} list: ${reply.detail}`);
  if (reply.status !== 200) throw new Error(`stripe answered ${reply.status} to the ${resource} list`);
  const body = jsonObjectOf(reply.text);
  if (body?.object !== 'list' || !Array.isArray(body.data) || typeof body.has_more !== 'boolean') {
    throw new Error(`unreadable stripe ${resource} list page`);
  }
  const data = body.data.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) throw new Error(`unreadable stripe ${resource} entry`);
    return entry as Json;
  });
  return { data, hasMore: body.has_more };
}

async function readAll<T extends { gatewayReference: string }>(
  send: (request: GatewayHttpRequest) => Promise<GatewayHttpReply>,
  account: StripeAccount,
  resource: 'payment_intents' | 'refunds',
  window: { from: Date; to: Date },
  read: (entry: Json) => T,
  pageSize: number,
): Promise<T[]> {
  const all: T[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { data, hasMore } = parseListPage(
      await send(buildListPage(account, resource, window, after, pageSize)),
      resource,
    );
    const entries = data.map(read);
    all.push(...entries);
    const last = entries.at(-1);
    if (!hasMore || !last) return all;
    after = last.gatewayReference;
  }
  throw new Error(`the stripe ${resource} list did not end`);
}

/** Stripe's PaymentIntents and Refunds created in the window, every page. */
export async function readStripeBooks(
  send: (request: GatewayHttpRequest) => Promise<GatewayHttpReply>,
  account: StripeAccount,
  window: { from: Date; to: Date },
  /** Objects per page (Stripe's most, 100, unless a test walks many pages). */
  pageSize = PAGE_SIZE,
): Promise<GatewayBooks> {
  const [charges, refunds] = await Promise.all([
    readAll(send, account, 'payment_intents', window, bookChargeOf, pageSize),
    readAll(send, account, 'refunds', window, bookRefundOf, pageSize),
  ]);
  return { charges, refunds, coverage: 'all' };
}
