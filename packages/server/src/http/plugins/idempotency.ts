import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { deriveClientSecret } from '../../domain/api-keys.ts';
import { AppError, IdempotencyError, ValidationError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  findStoredResponse,
  type KeyClaim,
  type StoredResponse,
  storeResponse,
  tryLockKey,
} from '../../storage/repositories/idempotency-keys.ts';
import { problemDocument } from '../problem.ts';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
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

export function readIdempotencyKey(request: FastifyRequest): string {
  const key = request.headers['idempotency-key'];
  if (key === undefined) throw new ValidationError('Idempotency-Key', 'header is required on this request');
  if (typeof key !== 'string' || key.length === 0) {
    throw new ValidationError('Idempotency-Key', 'must not be empty');
  }
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ValidationError('Idempotency-Key', `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  return key;
}

export interface WorkResult {
  status: number;
  body: unknown;
}

/**
 * Runs `work` at most once per (tenant, Idempotency-Key) and answers a repeat with the stored
 * response, byte for byte, marked `Idempotent-Replayed: true`.
 *
 * The work, and the stored response, commit in one transaction: a response is stored exactly when
 * its work committed, so a crash at any point leaves either both or neither. While it runs, the
 * transaction holds an advisory lock on the key: a concurrent request with the same key gets
 * `idempotency_key_in_flight` at once, and a process that dies releases the lock with its
 * connection. 4xx outcomes of the work are stored (their changes rolled back to a savepoint),
 * except validation_error; 5xx are not stored, so the same key may be retried.
 */
export async function respondIdempotently(
  ctx: AppContext,
  scope: TenantScope,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Queryable) => Promise<WorkResult>,
  writeInOneStatement?: OneStatementWrite,
): Promise<FastifyReply> {
  const key = readIdempotencyKey(request);
  const path = request.url.split('?')[0] ?? request.url;
  const hash = requestHash(request.method, path, request.body);

  if (writeInOneStatement) {
    const written = await tryOneStatement(ctx, scope, reply, { key, path, hash }, writeInOneStatement);
    if (written) return send(reply, written);
  }

  // A finished key is answered from its stored row without a transaction or the lock: the row
  // exists only once its work committed, so it is final.
  const finished = await findStoredResponse(ctx.db, scope, key, ctx.clock.now());
  if (finished) {
    return replay(reply, assertSameRequest(ctx, finished, hash));
  }

  const outcome = await ctx.db.transaction(async (tx) => {
    if (!(await tryLockKey(tx, lockIdFor(scope, key)))) throw inFlightError();
    const now = ctx.clock.now();
    const stored = await findStoredResponse(tx, scope, key, now);
    if (stored) return { replayed: true, ...assertSameRequest(ctx, stored, hash) };

    await tx.query('SAVEPOINT idempotent_work');
    let status: number;
    let body: string;
    try {
      const result = await work(tx);
      status = result.status;
      body = serializedAnswer(reply, status, result.body);
    } catch (error) {
      // Internal errors are not stored (the key may be retried), and neither are validation errors:
      // the corrected request, under the same key, must be able to do the work.
      if (!(error instanceof AppError) || error.status >= 500 || error.code === 'validation_error')
        throw error;
      await tx.query('ROLLBACK TO SAVEPOINT idempotent_work');
      status = error.status;
      body = serializedAnswer(reply, status, problemDocument(error, request.id));
    }
    await storeResponse(
      tx,
      scope,
      key,
      {
        requestMethod: request.method,
        requestPath: path,
        requestHash: hash,
        responseStatus: status,
        responseBody: withoutClientSecrets(body, ctx.clientSecretKey),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_LIFETIME_SECONDS * 1000),
      },
      now,
    );
    return { replayed: false, status, body };
  });

  if (outcome.replayed) return replay(reply, outcome);
  return send(reply, outcome);
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
  /** The answer to store, or an error to answer with (a 5xx is not stored, its changes still commit). */
  finish(tx: Queryable, started: Started, outcome: Outcome): Promise<WorkResult | AppError>;
}

/**
 * `respondIdempotently` for a `PhasedWork`. Phase 1 runs under the key's lock like any work (a
 * 4xx refusal is stored, with its changes rolled back); the answer is stored in phase 3's
 * transaction, together with the outcome. A crash in between leaves the work's recovery point,
 * which a retry with the same key, or the work's own reconciliation, finishes.
 */
export async function respondInPhases<Started, Outcome>(
  ctx: AppContext,
  scope: TenantScope,
  request: FastifyRequest,
  reply: FastifyReply,
  work: PhasedWork<Started, Outcome>,
): Promise<FastifyReply> {
  const key = readIdempotencyKey(request);
  const path = request.url.split('?')[0] ?? request.url;
  const hash = requestHash(request.method, path, request.body);
  const finished = await findStoredResponse(ctx.db, scope, key, ctx.clock.now());
  if (finished) return replay(reply, assertSameRequest(ctx, finished, hash));

  const stored = (status: number, body: string): StoredResponse => ({
    requestMethod: request.method,
    requestPath: path,
    requestHash: hash,
    responseStatus: status,
    responseBody: withoutClientSecrets(body, ctx.clientSecretKey),
    expiresAt: new Date(ctx.clock.now().getTime() + IDEMPOTENCY_KEY_LIFETIME_SECONDS * 1000),
  });
  const first = await ctx.db.transaction(async (tx) => {
    if (!(await tryLockKey(tx, lockIdFor(scope, key)))) throw inFlightError();
    const earlier = await findStoredResponse(tx, scope, key, ctx.clock.now());
    if (earlier) return { kind: 'replay' as const, ...assertSameRequest(ctx, earlier, hash) };
    await tx.query('SAVEPOINT idempotent_work');
    try {
      return { kind: 'started' as const, started: await work.start(tx, { key, hash }) };
    } catch (error) {
      if (!isStoredRefusal(error)) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT idempotent_work');
      const body = serializedAnswer(reply, error.status, problemDocument(error, request.id));
      await storeResponse(tx, scope, key, stored(error.status, body), ctx.clock.now());
      return { kind: 'refused' as const, status: error.status, body };
    }
  });
  if (first.kind === 'replay') return replay(reply, first);
  if (first.kind === 'refused') return send(reply, first);

  const outcome = await work.callOut(first.started);
  const answer = await ctx.db.transaction(async (tx) => {
    const result = await work.finish(tx, first.started, outcome);
    if (result instanceof AppError) {
      if (result.status >= 500) return result;
      const body = serializedAnswer(reply, result.status, problemDocument(result, request.id));
      await storeResponse(tx, scope, key, stored(result.status, body), ctx.clock.now());
      return { status: result.status, body };
    }
    const body = serializedAnswer(reply, result.status, result.body);
    await storeResponse(tx, scope, key, stored(result.status, body), ctx.clock.now());
    return { status: result.status, body };
  });
  if (answer instanceof AppError) throw answer;
  return send(reply, answer);
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
  scope: TenantScope,
  reply: FastifyReply,
  key: { key: string; path: string; hash: string },
  fast: OneStatementWrite,
): Promise<{ status: number; body: string } | null> {
  const { request } = reply;
  let prepared: PreparedWrite;
  try {
    prepared = await fast.prepare();
  } catch (error) {
    if (error instanceof AppError && error.code === 'validation_error') throw error;
    return null;
  }
  const now = ctx.clock.now();
  const body = serializedAnswer(reply, prepared.status, prepared.body);
  const result = await prepared.write(ctx.db, {
    lockId: lockIdFor(scope, key.key),
    key: key.key,
    requestMethod: request.method,
    requestPath: key.path,
    requestHash: key.hash,
    responseStatus: prepared.status,
    responseBody: withoutClientSecrets(body, ctx.clientSecretKey),
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_LIFETIME_SECONDS * 1000),
  });
  // Not written: the key is held by another request or already answered. The general path tells
  // which (a finished key is replayed, even while other replays of it hold the lock for a moment).
  return result === 'created' ? { status: prepared.status, body } : null;
}

/**
 * The answer's text as the route's response schema for its status serializes it (members the
 * contract does not declare are left out): the first answer is sent as this text and stored as it,
 * so a replay is the same bytes.
 */
function serializedAnswer(reply: FastifyReply, status: number, body: unknown): string {
  const text = reply.code(status).serialize(body);
  // Only a custom reply serializer answers bytes; the app sets none, but the type allows it.
  return typeof text === 'string' ? text : new TextDecoder().decode(text);
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
  stored: StoredResponse,
  hash: string,
): { status: number; body: string } {
  if (stored.requestHash !== hash) {
    throw new IdempotencyError(
      'idempotency_key_reuse',
      'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
    );
  }
  return { status: stored.responseStatus, body: withClientSecrets(stored.responseBody, ctx.clientSecretKey) };
}

function replay(reply: FastifyReply, response: { status: number; body: string }): FastifyReply {
  reply.header('idempotent-replayed', 'true');
  return send(reply, response);
}

function send(reply: FastifyReply, response: { status: number; body: string }): FastifyReply {
  return reply
    .code(response.status)
    .type(response.status >= 400 ? 'application/problem+json' : 'application/json')
    .send(response.body);
}
