// payment-sql.pgbench written from what the service sends (issue 33, item 6): the database's limit
// for the flow is measured on exactly the SQL of one payment of the checkout under test, so it
// follows every change of that SQL without being edited by hand.
//
// From a captured trace (bench/lib/statement-trace.ts) it takes the most common sequence of one
// payment's statements (the create, each phase of the confirm, with their transactions and their
// order), and the statements without a payment's id that the service sends about once per payment
// or more (the outbox's wake-up), and writes them as pgbench SQL: every parameter that names
// something of that payment (its ids, its idempotency key, its lock key, a delivery id's random
// part) becomes `:n`, a random number per payment; every other parameter a pgbench variable with
// the captured value (-D, sent as a parameter of unknown type as node-postgres sends it), NULL
// inline (pgbench cannot pass one), instants moved to a fixed day in the past (T0) so that the
// deliveries it queues are due for its own claims and never the service's. The delivery worker's
// part, batched once per 50 payments, is the hand-written tail of payment-sql-before.pgbench (a
// claim's ids feed its acknowledgement, which a fixed script cannot replay).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './processes.ts';
import type { PaymentTrace, Segment } from './statement-trace.ts';

/** The fixed day of the script's instants (as PAYMENT_SQL_T0 in baselines.ts). */
export const SCRIPT_T0 = Date.parse('2026-01-01T00:00:00Z');

const FRESH = /\b(pi|txn|evt|wd|re|req)_[0-9A-Za-z]{24}\b|\bflow-[0-9A-Za-z-]+/;
const RANDOM_SUFFIX = /^[0-9A-Za-z]{20}$/;
const LOCK_KEY = /^-?\d{15,20}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** Payments a capture needs before statements without a payment's id are counted per payment. */
const MIN_PAYMENTS_FOR_SHARES = 20;
/** Statements of the delivery worker, which the tail stands for. */
const WORKER = /claim_token|WITH input AS/;

/** Per-payment: a value that must differ for every payment (unique keys, locks). */
function isPerPayment(value: string): boolean {
  // A long text (a stored response, an event's payload) names the payment but is no key: kept as is.
  if (value.length > 100) return false;
  return FRESH.test(value) || RANDOM_SUFFIX.test(value) || LOCK_KEY.test(value);
}

function arrayLiteral(values: readonly unknown[]): string {
  return `{${values
    .map((v) => (v === null ? 'NULL' : `"${String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`))
    .join(',')}}`;
}

/** pgbench reads `:name` as a variable anywhere, quoted text included: a colon in a literal is written \x3A. */
function escapeColons(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, (literal) =>
    /:[A-Za-z_]/.test(literal.replaceAll('::', ''))
      ? `E${literal.replaceAll('\\', '\\\\').replaceAll(':', '\\x3A')}`
      : literal,
  );
}

export interface PaymentSqlScript {
  script: string;
  variables: Record<string, string>;
  /** Statements per payment besides the worker's tail, and how they travel. */
  statements: number;
  transactions: number;
}

export function writePaymentSqlScript(trace: PaymentTrace, header: string): PaymentSqlScript {
  if (trace.payments === 0 || trace.byIntent.length === 0) throw new Error('the trace holds no payment');
  // The most common shape among the chains of the most segments (complete payments).
  const shape = (chain: Segment[]) =>
    chain
      .map((s) => `${s.transaction}:${s.groups.map((g) => g.map((x) => x.sql).join('|')).join('/')}`)
      .join('#');
  const longest = Math.max(...trace.byIntent.map((c) => c.length));
  const counts = new Map<string, { chain: Segment[]; count: number }>();
  for (const chain of trace.byIntent.filter((c) => c.length === longest)) {
    const key = shape(chain);
    const entry = counts.get(key) ?? { chain, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  const chain = [...counts.values()].sort((a, b) => b.count - a.count)[0]?.chain;
  if (!chain) throw new Error('the trace holds no payment');

  // Statements without a payment's id sent about once per payment or more (not the worker's).
  const others = new Map<string, { segment: Segment; count: number }>();
  for (const segment of trace.other) {
    const sql = segment.groups[0]?.[0]?.sql;
    if (segment.transaction || !sql || WORKER.test(sql)) continue;
    const entry = others.get(sql) ?? { segment, count: 0 };
    entry.count += 1;
    others.set(sql, entry);
  }
  // A proportion needs payments to stand on: from a capture of a few (a loaded machine) only the
  // payment's own statements are taken, not a scheduler's round that happened to fall in it.
  const perPayment =
    trace.payments < MIN_PAYMENTS_FOR_SHARES
      ? []
      : [...others.values()]
          .filter((o) => o.count / trace.payments >= 0.5)
          .map((o) => ({ segment: o.segment, times: Math.round(o.count / trace.payments) }));

  const instants = chain
    .flatMap((s) => s.groups.flat().flatMap((x) => x.params))
    .filter((v): v is string => typeof v === 'string' && INSTANT.test(v))
    .map((v) => Date.parse(v));
  const base = instants.length ? Math.min(...instants) : SCRIPT_T0;
  const variables: Record<string, string> = {};
  const names = new Map<string, string>();
  const variable = (text: string) => {
    let name = names.get(text);
    if (!name) {
      name = `p${names.size + 1}`;
      names.set(text, name);
      variables[name] = text;
    }
    return `:${name}`;
  };
  const argument = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return variable(arrayLiteral(value));
    if (typeof value === 'string') {
      if (isPerPayment(value)) return ':n';
      if (INSTANT.test(value)) {
        // Instants of the payment itself (within a minute) on T0; the others (expiry, lease) keep their distance.
        const offset = Date.parse(value) - base;
        return variable(new Date(SCRIPT_T0 + (Math.abs(offset) < 60_000 ? 0 : offset)).toISOString());
      }
      return variable(value);
    }
    return variable(String(value));
  };
  const statement = (sql: string, params: unknown[]) =>
    `${escapeColons(sql)
      .replace(/\$(\d+)/g, (_, i: string) => argument(params[Number(i) - 1]))
      .trim()
      .replace(/;$/, '')};`;

  const lines: string[] = [header, '\\set n random(1000000000000, 9000000000000000000)'];
  let statements = 0;
  let transactions = 0;
  const emit = (segment: Segment) => {
    if (segment.transaction) {
      lines.push('BEGIN;');
      transactions += 1;
    }
    for (const group of segment.groups)
      for (const s of group) {
        lines.push(statement(s.sql, s.params));
        statements += 1;
      }
    if (segment.transaction) lines.push('COMMIT;');
  };
  for (const segment of chain) emit(segment);
  for (const { segment, times } of perPayment) for (let i = 0; i < times; i++) emit(segment);
  lines.push(workerTail(trace, statement, variable).trimEnd(), '');
  return { script: lines.join('\n'), variables, statements, transactions };
}

/**
 * The delivery worker's part, batched as the service batches it: once per :batch payments (a random
 * draw, so clients do not move in step) the service's own claim, rewritten to hand back the claimed
 * ids as one row (\gset takes one row; a data-modifying statement cannot be nested, so its UPDATE
 * becomes a second CTE), and the service's own acknowledgement of them all, its JSON batch built
 * from a captured outcome with each claimed id put in. Without a claim and an acknowledgement in the
 * capture, the hand-written tail of payment-sql-before.pgbench.
 */
function workerTail(
  trace: PaymentTrace,
  statement: (sql: string, params: unknown[]) => string,
  variable: (text: string) => string,
): string {
  const sent = trace.other.flatMap((s) => s.groups.flat());
  const claim = sent.find((s) => /claim_token AS previous_claim/.test(s.sql) && /\)\s*UPDATE\s/.test(s.sql));
  const ack = sent.find((s) => /^\s*WITH input AS/.test(s.sql) && typeof s.params[0] === 'string');
  let template: Record<string, unknown> | undefined;
  try {
    template = ack ? (JSON.parse(String(ack.params[0])) as Record<string, unknown>[])[0] : undefined;
  } catch {
    template = undefined;
  }
  if (!claim || !ack || !template) {
    const before = readFileSync(join(repoRoot, 'bench/baselines/payment-sql-before.pgbench'), 'utf8');
    return [
      '-- The delivery worker: no claim and acknowledgement in the capture, so the tail of payment-sql-before.pgbench.',
      before.slice(before.indexOf('\\set draw')),
    ].join('\n');
  }
  const claimSql = statement(claim.sql, claim.params).replace(/;$/, '');
  const split = claimSql.search(/\)\s*UPDATE\s/);
  const head = claimSql.slice(0, split + 1);
  const update = claimSql.slice(split + 1).trim();
  const outcome = variable(JSON.stringify({ ...template, delivery_id: null, claim_token: null }));
  const ackSql = statement(ack.sql, ack.params).replace(/(:p\d+)(::jsonb)/, ':c_batch$2');
  return [
    '-- The delivery worker, batched as the service batches it (bench/lib/payment-sql-script.ts, workerTail).',
    '\\set draw random(1, :batch)',
    '\\if :draw = 1',
    `${head},
     claimed AS (
     ${update}
     )
SELECT count(*) AS c_n,
       coalesce(jsonb_agg(jsonb_set(jsonb_set(${outcome}::jsonb, '{delivery_id}', to_jsonb(claimed.id)),
                                    '{claim_token}', to_jsonb(claimed.claim_token))), '[]'::jsonb)::text AS c_batch
  FROM claimed`,
    '\\gset',
    '\\if :c_n > 0',
    ackSql,
    '\\endif',
    '\\endif',
  ].join('\n');
}
