// The statements of whole payments as the service sends them, captured from the service itself and
// replayable through any driver (issue 33, item 2): `bench/driver-ab.ts` replays them through
// node-postgres (storage/postgres.ts) and postgres.js. Capturing rather than writing the SQL out by
// hand means the A/B always runs the SQL of the checkout under test: when a phase of the confirm
// becomes one call of a database function, the trace holds that call.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runLoad } from './load.ts';
import { WebhookReceiver } from './receiver.ts';
import { flowRequests } from './scenarios.ts';
import { type BenchMerchant, callAdmin, createMerchant, startPaygate } from './service.ts';

/** One statement as the probe saw it (bench/support/service-probe.mjs, BENCH_QUERY_TRACE). */
interface TracedStatement {
  /** The connection it was sent on (a number per pg.Client of the service). */
  c: number;
  t: string;
  v: unknown[];
  /** Written while another statement still waited for its answer on that connection. */
  p: boolean;
}

/** Statements written together: each group is sent without waiting for the answers of the others. */
export type StatementGroup = { sql: string; params: unknown[] }[];

/**
 * One unit of replay: a transaction (BEGIN … COMMIT, which the driver under test writes itself)
 * or one statement outside a transaction.
 */
export interface Segment {
  transaction: boolean;
  groups: StatementGroup[];
  /** The payment intent it belongs to (the first `pi_` id among its parameters), if any. */
  intent: string | null;
}

export interface PaymentTrace {
  /** Confirmed payments during the capture: the per-payment figures divide by this. */
  payments: number;
  /** Per intent, its segments in the order sent; then the segments of no intent (the delivery worker's). */
  byIntent: Segment[][];
  other: Segment[];
  statements: number;
  /** Statements as written one by one vs together: the round trips of the capture. */
  roundTrips: number;
}

const INTENT = /\bpi_[0-9A-Za-z]{24}\b/;
/** Ids made per payment, and the flow's idempotency keys: renamed per replay so rows never collide. */
const FRESH = /\b(pi|txn|evt|wd|re|req)_[0-9A-Za-z]{24}\b|\bflow-[0-9A-Za-z-]+/g;
/** A bare random suffix (a delivery id's, made in SQL from it: storage/repositories/events.ts). */
const RANDOM_SUFFIX = /^[0-9A-Za-z]{20}$/;
const TX_START = /^\s*BEGIN\b/i;
const TX_END = /^\s*(COMMIT|ROLLBACK)\b/i;

function intentOf(value: unknown): string | null {
  if (typeof value === 'string') return INTENT.exec(value)?.[0] ?? null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = intentOf(item);
      if (found) return found;
    }
  }
  return null;
}

/** Splits the probe's trace into segments per connection and groups them by payment intent. */
export function parseTrace(statements: TracedStatement[], payments: number): PaymentTrace {
  const open = new Map<number, Segment>();
  const ordered: Segment[] = [];
  let roundTrips = 0;
  let counted = 0;
  for (const s of statements) {
    if (/^\s*(LISTEN|UNLISTEN)\b/i.test(s.t)) continue;
    counted += 1;
    if (!s.p) roundTrips += 1;
    const current = open.get(s.c);
    if (TX_START.test(s.t)) {
      const segment: Segment = { transaction: true, groups: [], intent: null };
      open.set(s.c, segment);
      ordered.push(segment);
      continue;
    }
    if (TX_END.test(s.t)) {
      open.delete(s.c);
      continue;
    }
    const statement = { sql: s.t, params: s.v };
    const intent = s.v.map(intentOf).find((i) => i !== null) ?? null;
    if (current) {
      const last = current.groups[current.groups.length - 1];
      // The first statement after BEGIN is written with it: it starts the first group.
      if (s.p && last) last.push(statement);
      else current.groups.push([statement]);
      current.intent ??= intent;
    } else {
      ordered.push({ transaction: false, groups: [[statement]], intent });
    }
  }
  const byIntent = new Map<string, Segment[]>();
  const other: Segment[] = [];
  for (const segment of ordered) {
    if (segment.groups.length === 0) continue;
    if (segment.intent) {
      const list = byIntent.get(segment.intent) ?? [];
      list.push(segment);
      byIntent.set(segment.intent, list);
    } else {
      other.push(segment);
    }
  }
  return { payments, byIntent: [...byIntent.values()], other, statements: counted, roundTrips };
}

/**
 * The replay's copy of a value: every per-payment id renamed for this replay (`tag`), the same id
 * to the same new id everywhere (in text, in JSON, in arrays), of the same length and shape.
 */
export function renamer(tag: string): (value: unknown) => unknown {
  const names = new Map<string, string>();
  const rename = (token: string) => {
    let name = names.get(token);
    if (name === undefined) {
      const digest = createHash('sha256').update(`${tag}:${token}`).digest('base64url').replace(/[-_]/g, 'x');
      const cut = RANDOM_SUFFIX.test(token)
        ? 0
        : token.indexOf('_') >= 0
          ? token.indexOf('_') + 1
          : token.indexOf('-') + 1;
      const body = token.slice(cut);
      name = token.slice(0, cut) + (digest + digest).slice(0, body.length);
      names.set(token, name);
    }
    return name;
  };
  const copy = (value: unknown): unknown =>
    typeof value === 'string'
      ? RANDOM_SUFFIX.test(value)
        ? rename(value)
        : value.replace(FRESH, rename)
      : Array.isArray(value)
        ? value.map(copy)
        : value;
  return copy;
}

/**
 * Starts the service of the checkout under test on `databaseUrl` with the probe's trace on, runs
 * the full flow (create + confirm, signed webhooks to a receiver) at 10 connections for `seconds`
 * after a warm-up, and returns the statements it sent, grouped per payment. The database keeps the
 * merchant and its webhook endpoint, which the replayed statements refer to.
 */
export async function capturePaymentTrace(options: {
  databaseUrl: string;
  tmpDir: string;
  seconds: number;
  log: (line: string) => void;
}): Promise<{ trace: PaymentTrace; merchant: BenchMerchant }> {
  const tracePath = join(options.tmpDir, `statement-trace-${process.pid}.json`);
  const countPath = join(options.tmpDir, `statement-counts-${process.pid}.json`);
  rmSync(tracePath, { force: true });
  const receiver = await WebhookReceiver.start();
  const service = await startPaygate({
    kind: 'postgres',
    databaseUrl: options.databaseUrl,
    simulator: 'own-process',
    env: { BENCH_QUERY_LOG: countPath, BENCH_QUERY_TRACE: tracePath },
  });
  let payments = 0;
  let merchant: BenchMerchant;
  try {
    merchant = await createMerchant(service, 'Driver A/B merchant');
    const endpoint = await callAdmin(service, `/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
      url: `${receiver.url}/webhooks`,
      livemode: false,
    });
    await receiver.reset(String(endpoint.secret));
    const load = (durationSeconds: number, onConfirmed?: () => void) => {
      const requests = flowRequests(merchant);
      const confirm = requests[requests.length - 1];
      if (confirm && onConfirmed)
        confirm.onResponse = (status) => {
          if (status >= 200 && status < 300) onConfirmed();
        };
      return runLoad({
        url: service.baseUrl,
        connections: 10,
        durationSeconds,
        requests,
        idReplacement: true,
      });
    };
    await load(1);
    await sleep(500);
    service.child.signal('SIGUSR2');
    await sleep(50);
    await load(options.seconds, () => {
      payments += 1;
    });
    // The delivery worker's claims and acknowledgements of these payments belong to the trace.
    await receiver.settle('payment_intent.succeeded', Number.POSITIVE_INFINITY, 1000, 10_000);
  } finally {
    await service.child.stop();
    await receiver.stop();
  }
  if (!existsSync(tracePath)) throw new Error('the service wrote no statement trace');
  const statements = JSON.parse(readFileSync(tracePath, 'utf8')) as TracedStatement[];
  rmSync(tracePath, { force: true });
  rmSync(countPath, { force: true });
  if (payments === 0) throw new Error(`no payment was confirmed in the ${options.seconds} s of the capture`);
  const trace = parseTrace(statements, payments);
  options.log(
    `driver A/B: captured ${trace.statements} statements in ${trace.roundTrips} round trips for ${payments} payments (${trace.byIntent.length} intents, ${trace.other.length} other segments)`,
  );
  return { trace, merchant };
}
