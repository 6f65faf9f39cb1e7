// The simulated gateway's books (`/v1/reports/charges` and `/v1/reports/refunds`), read page by
// page and checked field by field: an entry we cannot read fails the whole read, because a
// reconciliation over a partial list would report differences that are not there.
import type { BookCharge, BookRefund, GatewayBooks } from '../connector.ts';
import { isObject } from './wire.ts';

type Json = Record<string, unknown>;
export type GetJson = (path: string) => Promise<unknown>;

const PAGE_SIZE = 100;
/** More pages than this for one window means something is wrong (a page that never ends). */
const MAX_PAGES = 10_000;

const chargeStatuses: readonly BookCharge['status'][] = ['succeeded', 'failed', 'pending', 'requires_action'];
const refundStatuses: readonly BookRefund['status'][] = ['succeeded', 'failed', 'pending'];

function oneOf<T extends string>(allowed: readonly T[], value: string): value is T {
  return allowed.some((candidate) => candidate === value);
}

function text(entry: Json, name: string): string {
  const value = entry[name];
  if (typeof value !== 'string' || value.length === 0) throw new Error(`books entry without ${name}`);
  return value;
}

function integer(entry: Json, name: string): number {
  const value = entry[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new Error(`books entry without ${name}`);
  return value;
}

/**
 * An authorised charge not captured yet is pending in the books (the PAYMENT transaction is too);
 * one voided or lapsed took nothing, as a failed one. A captured manual charge took what its
 * capture took, which may be part of the authorisation.
 */
const AUTHORISATION_STATUSES: Record<string, BookCharge['status']> = {
  requires_capture: 'pending',
  canceled: 'failed',
};

function bookCharge(entry: Json): BookCharge {
  const given = text(entry, 'status');
  const status = AUTHORISATION_STATUSES[given] ?? given;
  if (!oneOf(chargeStatuses, status)) throw new Error(`books charge with status ${given}`);
  const captured = entry.capture_method === 'manual' && status === 'succeeded';
  return {
    gatewayReference: text(entry, 'id'),
    idempotencyKey: text(entry, 'idempotency_key'),
    amountMinor: integer(entry, captured ? 'amount_captured_minor' : 'amount_minor'),
    currency: text(entry, 'currency'),
    status,
    createdAt: new Date(integer(entry, 'created') * 1000),
  };
}

function bookRefund(entry: Json): BookRefund {
  const status = text(entry, 'status');
  if (!oneOf(refundStatuses, status)) throw new Error(`books refund with status ${status}`);
  return {
    gatewayReference: text(entry, 'id'),
    idempotencyKey: text(entry, 'idempotency_key'),
    chargeReference: text(entry, 'charge'),
    amountMinor: integer(entry, 'amount_minor'),
    currency: text(entry, 'currency'),
    status,
    createdAt: new Date(integer(entry, 'created') * 1000),
  };
}

async function readAll<T>(
  getJson: GetJson,
  resource: 'charges' | 'refunds',
  window: { from: Date; to: Date },
  read: (entry: Json) => T & { gatewayReference: string },
): Promise<T[]> {
  // The gateway counts in whole seconds: the window is widened to whole seconds on both sides.
  const from = Math.floor(window.from.getTime() / 1000);
  const to = Math.ceil(window.to.getTime() / 1000);
  const all: T[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = `created_gte=${from}&created_lt=${to}&limit=${PAGE_SIZE}${
      after ? `&starting_after=${encodeURIComponent(after)}` : ''
    }`;
    const body = await getJson(`/v1/reports/${resource}?${query}`);
    if (!isObject(body) || !Array.isArray(body.data) || typeof body.has_more !== 'boolean') {
      throw new Error(`unreadable ${resource} books page from the simulated gateway`);
    }
    const entries = body.data.map((entry) => {
      if (!isObject(entry)) throw new Error(`unreadable ${resource} books entry`);
      return read(entry);
    });
    all.push(...entries);
    const last = entries.at(-1);
    if (!body.has_more || !last) return all;
    after = last.gatewayReference;
  }
  throw new Error(`the ${resource} books of the simulated gateway did not end`);
}

export async function readSimBooks(
  getJson: GetJson,
  window: { from: Date; to: Date },
): Promise<GatewayBooks> {
  const [charges, refunds] = await Promise.all([
    readAll(getJson, 'charges', window, bookCharge),
    readAll(getJson, 'refunds', window, bookRefund),
  ]);
  return { charges, refunds };
}
