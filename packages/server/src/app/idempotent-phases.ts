import { createHash } from 'node:crypto';
import { deriveClientSecret } from '../domain/api-keys.ts';
import { AppError, IdempotencyError } from '../domain/errors.ts';
import type { TenantScope } from '../domain/tenant.ts';
import type { Queryable } from '../storage/db.ts';
import {
  findStoredResponse,
  isOperatorKeySpace,
  type KeyClaim,
  OPERATOR_KEY_SPACE,
  type StoredResponse,
  storeResponse,
  tryLockKey,
} from '../storage/repositories/idempotency-keys.ts';
import type { AppContext } from './context.ts';

export const IDEMPOTENCY_KEY_LIFETIME_SECONDS = 24 * 60 * 60;

// A stored idempotent answer is replayed byte for byte, but it must not hold client secrets: the
// docs promise they are derived and never stored, and the idempotency table (and the embedded
// data directory) would otherwise be a list of them. The stored text keeps the member with the
// secret cut to `<pi id>_secret_`, which no answer ever holds; a replay derives it again.

const SECRET_MEMBER = /"client_secret":"(pi_[0-9A-Za-z]{24})_secret_([0-9A-Za-z]{24})"/g;
const CUT_SECRET_MEMBER = /"client_secret":"(pi_[0-9A-Za-z]{24})_secret_"/g;

/** The answer as stored: each derived client secret cut to its intent id. */
function withoutClientSecrets(body: string, clientSecretKey: Buffer): string {
  return body.replace(SECRET_MEMBER, (whole, intentId: string, suffix: string) =>
    // Only a secret this service derived is cut: anything else is the answer's own data.
    `${intentId}_secret_${suffix}` === deriveClientSecret(intentId, clientSecretKey)
      ? `"client_secret":"${intentId}_secret_"`
      : whole,
  );
}

/** The answer as replayed: each cut client secret derived again, byte for byte as first sent. */
function withClientSecrets(body: string, clientSecretKey: Buffer): string {
  return body.replace(
    CUT_SECRET_MEMBER,
    (_whole, intentId: string) => `"client_secret":"${deriveClientSecret(intentId, clientSecretKey)}"`,
  );
}

/** JSON with object keys sorted, so that key order and white space do not make two bodies differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** A 64-bit advisory-lock id for one key of one tenant. Collisions only cost a spurious 409. */
function lockIdFor(scope: TenantScope, key: string): bigint {
  const digest = createHash('sha256')
    .update(`${scope.merchantId}\u0000${scope.livemode}\u0000${key}`)
    .digest();
  return digest.readBigInt64BE(0);
}

/**
 * One request under an Idempotency-Key, as the work runs it: who, which key, what request (its
 * hash), and how its answers become the text that is sent, stored and replayed (the route's
 * response schema serializes them; a refusal is the route's problem document).
 */
export interface IdempotentRequest {
  scope: TenantScope;
  key: string;
  method: string;
  /** The path without its query. */
  path: string;
  /** The hash of method, path and body: a different request under the same key is refused. */
  hash: string;
  serialize(status: number, body: unknown): string;
  problem(error: AppError): unknown;
}

/** The answer to send: its status and exact text, and whether it repeats a stored one. */
export interface IdempotentAnswer {
  status: number;
  body: string;
  replayed: boolean;
}

export interface WorkResult {
  status: number;
  body: unknown;
}

/**
 * Runs `work` at most once per (tenant, Idempotency-Key) and answers a repeat with the stored
 * response, byte for byte (`replayed`).
 *
 * The work, and the stored response, commit in one transaction: a response is stored exactly when
 * its work committed, so a crash at any point leaves either both or neither. While it runs, the
 * transaction holds an advisory lock on the key: a concurrent request with the same key gets
 * `idempotency_key_in_flight` at once, and a process that dies releases the lock with its
 * connection. 4xx outcomes of the work are stored (their changes rolled back to a savepoint),
 * except validation_error; 5xx are not stored, so the same key may be retried.
 */
export async function runIdempotently(
  ctx: AppContext,
  request: IdempotentRequest,
  work: (tx: Queryable) => Promise<WorkResult>,
  writeInOneStatement?: OneStatementWrite,
): Promise<IdempotentAnswer> {
  const { scope, key } = request;
  if (writeInOneStatement) {
    const written = await tryOneStatement(ctx, request, writeInOneStatement);
    if (written) return { ...written, replayed: false };
  }

  // A finished key is answered from its stored row without a transaction or the lock: the row
  // exists only once its work committed, so it is final.
  const finished = await findStoredResponse(ctx.db, scope, key, ctx.clock.now());
  if (finished) return { ...assertSameRequest(ctx, request, finished), replayed: true };

  return ctx.db.transaction(async (tx) => {
    if (!(await tryLockKey(tx, lockIdFor(scope, key)))) throw inFlightError();
    const now = ctx.clock.now();
    const stored = await findStoredResponse(tx, scope, key, now);
    if (stored) return { ...assertSameRequest(ctx, request, stored), replayed: true };

    await tx.query('SAVEPOINT idempotent_work');
    let status: number;
    let body: string;
    try {
      const result = await work(tx);
      status = result.status;
      body = request.serialize(status, result.body);
    } catch (error) {
      // Internal errors are not stored (the key may be retried), and neither are validation errors:
      // the corrected request, under the same key, must be able to do the work.
      if (!(error instanceof AppError) || error.status >= 500 || error.code === 'validation_error')
        throw error;
      await tx.query('ROLLBACK TO SAVEPOINT idempotent_work');
      status = error.status;
      body = request.serialize(status, request.problem(error));
    }
    await storeResponse(tx, scope, key, storedAnswer(ctx, request, status, body), now);
    return { status, body, replayed: false };
  });
}

/**
 * A work that calls out (a gateway) in phases, so that no transaction stays open during the call:
 * `start` commits a recovery point, `callOut` runs outside any transaction, `finish` commits the
 * outcome. The work itself must find the recovery point a same-key request left (after a crash,
 * or while the first request is still calling out) and take it up, or refuse it as in flight.
 */
export interface PhasedWork<Started, Outcome> {
  start(tx: Queryable, request: { key: string; hash: string }): Promise<Started>;
  callOut(started: Started): Promise<Outcome>;
  /**
   * The answer to store. An AppError it throws is the answer instead, and its changes commit all
   * the same (a refund the gateway never took is removed): a 4xx is stored, a 5xx is not.
   */
  finish(tx: Queryable, started: Started, outcome: Outcome): Promise<WorkResult>;
  /**
   * Phase 1 of a new key in ONE statement, the key's own checks included (no answer stored under
   * it, its lock free): `{ started }` when it wrote the recovery point; null, with nothing written,
   * when the general path must decide (a replay, a refusal, a key in flight, any rarer case).
   */
  startInOneStatement?(key: KeyLock): Promise<{ started: Started } | null>;
  /**
   * Phase 3 in ONE statement with the answer stored, for the outcomes that allow it: the answer,
   * and the write that commits it under the key (false, with nothing written, when the rows were
   * no longer as phase 1 left them: the general `finish` then runs). Null: the general `finish`.
   */
  finishInOneStatement?(started: Started, outcome: Outcome): PreparedFinish | null;
}

/** The key of a request under way: its lock id, the key and the request's hash. */
export interface KeyLock {
  lockId: bigint;
  key: string;
  hash: string;
}

/** A phase 3 decided in memory, whose write stores `answer` with it. */
export interface PreparedFinish {
  status: number;
  body: unknown;
  write(q: Queryable, answer: KeyClaim): Promise<boolean>;
}

/**
 * `runIdempotently` for a `PhasedWork`. Phase 1 runs under the key's lock like any work (a 4xx
 * refusal is stored, with its changes rolled back); the answer is stored in phase 3's
 * transaction, together with the outcome. A crash in between leaves the work's recovery point,
 * which a retry with the same key, or the work's own reconciliation, finishes.
 */
export async function runInPhases<Started, Outcome>(
  ctx: AppContext,
  request: IdempotentRequest,
  work: PhasedWork<Started, Outcome>,
): Promise<IdempotentAnswer> {
  const { scope, key, hash } = request;
  const lockId = lockIdFor(scope, key);
  // The common case (a new key, the work's own common case) in one statement; anything else in
  // the general path below, which also answers what the one statement left alone.
  const fast =
    work.startInOneStatement && !isOperatorKeySpace(scope)
      ? await work.startInOneStatement({ lockId, key, hash })
      : null;
  let started: Started;
  if (fast) {
    started = fast.started;
  } else {
    const first = await startInPhases(ctx, request, work);
    if (first.kind === 'replay') return { status: first.status, body: first.body, replayed: true };
    if (first.kind === 'refused') return { status: first.status, body: first.body, replayed: false };
    started = first.started;
  }

  const outcome = await work.callOut(started);
  const prepared = finishPrepared(work, started, outcome);
  if (prepared) {
    const body = request.serialize(prepared.status, prepared.body);
    const stored = { lockId, key, ...storedAnswer(ctx, request, prepared.status, body) };
    if (await prepared.write(ctx.db, stored)) return { status: prepared.status, body, replayed: false };
  }
  const answer = await ctx.db.transaction(async (tx) => {
    let status: number;
    let body: string;
    try {
      const result = await work.finish(tx, started, outcome);
      status = result.status;
      body = request.serialize(status, result.body);
    } catch (error) {
      // Returned, not thrown, so that the transaction commits what the finish wrote.
      if (!(error instanceof AppError)) throw error;
      if (error.status >= 500) return error;
      status = error.status;
      body = request.serialize(status, request.problem(error));
    }
    await storeResponse(tx, scope, key, storedAnswer(ctx, request, status, body), ctx.clock.now());
    return { status, body, replayed: false };
  });
  if (answer instanceof AppError) throw answer;
  return answer;
}

type FirstPhase<Started> =
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'refused'; status: number; body: string }
  | { kind: 'started'; started: Started };

/** Phase 1 in the general path: the key's look-up and lock, then the work's start, in a transaction. */
async function startInPhases<Started, Outcome>(
  ctx: AppContext,
  request: IdempotentRequest,
  work: PhasedWork<Started, Outcome>,
): Promise<FirstPhase<Started>> {
  const { scope, key, hash } = request;
  const finished = await findStoredResponse(ctx.db, scope, key, ctx.clock.now());
  if (finished) return { kind: 'replay', ...assertSameRequest(ctx, request, finished) };
  return ctx.db.transaction(async (tx): Promise<FirstPhase<Started>> => {
    if (!(await tryLockKey(tx, lockIdFor(scope, key)))) throw inFlightError();
    const earlier = await findStoredResponse(tx, scope, key, ctx.clock.now());
    if (earlier) return { kind: 'replay', ...assertSameRequest(ctx, request, earlier) };
    await tx.query('SAVEPOINT idempotent_work');
    try {
      return { kind: 'started', started: await work.start(tx, { key, hash }) };
    } catch (error) {
      if (!isStoredRefusal(error)) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT idempotent_work');
      const body = request.serialize(error.status, request.problem(error));
      await storeResponse(tx, scope, key, storedAnswer(ctx, request, error.status, body), ctx.clock.now());
      return { kind: 'refused', status: error.status, body };
    }
  });
}

/** The work's one-statement finish, if it takes this outcome; any doubt is the general finish's. */
function finishPrepared<Started, Outcome>(
  work: PhasedWork<Started, Outcome>,
  started: Started,
  outcome: Outcome,
): PreparedFinish | null {
  try {
    return work.finishInOneStatement?.(started, outcome) ?? null;
  } catch {
    // The general finish decides the same outcome again under the rows' locks, and throws there.
    return null;
  }
}

/** The row that keeps an answer for its key's lifetime (client secrets cut out). */
function storedAnswer(
  ctx: AppContext,
  request: IdempotentRequest,
  status: number,
  body: string,
): StoredResponse {
  return {
    requestMethod: request.method,
    requestPath: request.path,
    requestHash: request.hash,
    responseStatus: status,
    responseBody: isOperatorKeySpace(request.scope)
      ? ctx.secretBox.encrypt(body, sealedFor(request.key))
      : withoutClientSecrets(body, ctx.clientSecretKey),
    expiresAt: new Date(ctx.clock.now().getTime() + IDEMPOTENCY_KEY_LIFETIME_SECONDS * 1000),
  };
}

/** A refusal of the work that is stored under its key: 4xx, except validation and the key's own errors. */
function isStoredRefusal(error: unknown): error is AppError {
  return (
    error instanceof AppError &&
    error.status < 500 &&
    error.code !== 'validation_error' &&
    !(error instanceof IdempotencyError)
  );
}

/**
 * A work whose answer is known before it writes (it validates and builds everything in memory)
 * can be written together with its key in one statement: `prepare` builds the answer (or throws),
 * `write` stores it and the resource under the key's lock.
 */
export interface OneStatementWrite {
  prepare(): Promise<PreparedWrite>;
}
interface PreparedWrite {
  status: number;
  body: unknown;
  write(q: Queryable, claim: KeyClaim): Promise<OneStatementResult>;
}
export type OneStatementResult = 'created' | 'in_flight' | 'exists';

/**
 * The fast path of a new key: one round trip, one commit. Returns the answer to send, or null when
 * the general path must answer (the key exists or is locked: replay, reuse or in flight; or the
 * work refused the request with an outcome that is stored, inside the general path's transaction).
 */
async function tryOneStatement(
  ctx: AppContext,
  request: IdempotentRequest,
  fast: OneStatementWrite,
): Promise<{ status: number; body: string } | null> {
  let prepared: PreparedWrite;
  try {
    prepared = await fast.prepare();
  } catch (error) {
    if (error instanceof AppError && error.code === 'validation_error') throw error;
    return null;
  }
  const body = request.serialize(prepared.status, prepared.body);
  const result = await prepared.write(ctx.db, {
    lockId: lockIdFor(request.scope, request.key),
    key: request.key,
    ...storedAnswer(ctx, request, prepared.status, body),
  });
  // Not written: the key is held by another request or already answered. The general path tells
  // which (a finished key is replayed, even while other replays of it hold the lock for a moment).
  return result === 'created' ? { status: prepared.status, body } : null;
}

function inFlightError(): IdempotencyError {
  return new IdempotencyError(
    'idempotency_key_in_flight',
    'A request with this Idempotency-Key is still being processed. Wait, then retry with the same key.',
    { retryAfterSeconds: 1 },
  );
}

function assertSameRequest(
  ctx: AppContext,
  request: IdempotentRequest,
  stored: StoredResponse,
): { status: number; body: string } {
  if (stored.requestHash !== request.hash) {
    throw new IdempotencyError(
      'idempotency_key_reuse',
      'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
    );
  }
  if (isOperatorKeySpace(request.scope)) {
    let body: string;
    try {
      body = ctx.secretBox.decrypt(stored.responseBody, sealedFor(request.key));
    } catch {
      // Sealed under the master key before a rotation: the answer cannot be given again.
      throw new IdempotencyError(
        'idempotency_key_reuse',
        'The answer stored under this Idempotency-Key was sealed under an earlier master key and cannot be replayed. Use a new key.',
      );
    }
    return { status: stored.responseStatus, body };
  }
  return { status: stored.responseStatus, body: withClientSecrets(stored.responseBody, ctx.clientSecretKey) };
}

/**
 * The operator's answers hold what is shown once (a merchant's API keys, a webhook signing
 * secret): they are stored sealed under the master key, for their key, never in the clear.
 */
const sealedFor = (key: string) => `operator-idempotency:${key}`;

export { OPERATOR_KEY_SPACE };
