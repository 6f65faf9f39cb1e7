import { ValidationError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/passwords.ts';
import { secretDigest } from '../../domain/secret-digest.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  deleteOperatorSession,
  findLiveOperatorSession,
  findOperatorByEmail,
  insertOperator,
  insertOperatorAudit,
  insertOperatorSession,
  listOperatorAudit,
  type OperatorUserRow,
} from '../../storage/repositories/operator-users.ts';

/** What a signed-in session resolves to, for the HTTP layer's request decoration. */
export type { OperatorSessionRow, OperatorUserRow } from '../../storage/repositories/operator-users.ts';

import { type AccountKind, openSession } from '../back-office-users/accounts.ts';
import { AUDIT_PAGE_LIMIT, auditPageOf, auditSide, parseBound } from '../back-office-users/audit.ts';
import type { TotpHolder } from '../back-office-users/totp.ts';
import type { AppContext } from '../context.ts';

/** Writes one line of the operators' audit log: who did what, to what, when. */
export function recordOperatorAction(
  q: Queryable,
  now: Date,
  entry: { operatorId: string; action: string; target?: string | null },
): Promise<void> {
  return insertOperatorAudit(q, {
    id: newId('aud'),
    operatorId: entry.operatorId,
    action: entry.action,
    target: entry.target ?? null,
    createdAt: now,
  });
}

/**
 * The audit writer of one console action of an operator, for a use case that runs it in the
 * transaction of the change it records: the change and its audit line commit together or not at all.
 */
export function auditOperatorAction(ctx: AppContext, operatorId: string, action: string) {
  return (tx: Queryable, target: string): Promise<void> =>
    recordOperatorAction(tx, ctx.clock.now(), { operatorId, action, target });
}

// Operators sign in exactly as dashboard users do (accounts.ts): throttled per address, the same
// scrypt work for an unknown one, the dashboard's second factor, every attempt audited.
const operatorAccounts: AccountKind<OperatorUserRow> = {
  throttle: 'operator-sign-in',
  findByEmail: findOperatorByEmail,
  insertSession: insertOperatorSession,
  audit: (tx, now, user, action) => recordOperatorAction(tx, now, { operatorId: user.id, action }),
};

/** Adds an operator (`paygate operator create`): their address and a password they will sign in with. */
export async function createOperator(
  ctx: AppContext,
  input: { email: string; password: string },
): Promise<{ id: string; email: string }> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) {
    throw new ValidationError('email', 'must be an e-mail address');
  }
  if (input.password.length < PASSWORD_MIN_LENGTH || input.password.length > PASSWORD_MAX_LENGTH) {
    throw new ValidationError(
      'password',
      `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`,
    );
  }
  const id = newId('opu');
  const added = await insertOperator(ctx.db, {
    id,
    email,
    password_hash: await hashPassword(input.password),
    created_at: ctx.clock.now(),
  });
  if (!added) throw new ValidationError('email', 'already belongs to an operator');
  return { id, email };
}

export function signInOperator(
  ctx: AppContext,
  input: { email: string; password: string; totp_code?: string },
) {
  return openSession(ctx, operatorAccounts, input);
}

/** The operator session a cookie names, or null when it is unknown, expired or its operator disabled. */
export function resolveOperatorSession(ctx: AppContext, sessionId: string) {
  return findLiveOperatorSession(ctx.db, secretDigest(sessionId), ctx.clock.now());
}

export async function signOutOperator(ctx: AppContext, operatorId: string, sessionId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await deleteOperatorSession(tx, secretDigest(sessionId));
    await recordOperatorAction(tx, ctx.clock.now(), { operatorId, action: 'sign_out' });
  });
}

/** An operator as the holder of a second factor: the dashboard's TOTP rules, the console's audit log. */
export function operatorTotpHolder(operator: { id: string; email: string }): TotpHolder {
  return {
    id: operator.id,
    email: operator.email,
    throttle: 'operator-sign-in',
    audit: (tx, now, action) => recordOperatorAction(tx, now, { operatorId: operator.id, action }),
  };
}

export interface OperatorAuditQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
  before?: string | undefined;
  action?: string | undefined;
  operator_email?: string | undefined;
  created_gte?: string | undefined;
  created_lt?: string | undefined;
}

/**
 * One page of the console's audit log, newest first, filtered by action, operator and date, in
 * keyset pages both ways with the merchant audit log's signed cursors.
 */
export async function operatorAuditLog(ctx: AppContext, query: OperatorAuditQuery) {
  const limit = query.limit ?? AUDIT_PAGE_LIMIT;
  const side = auditSide(ctx, query);
  const rows = await listOperatorAudit(ctx.db, {
    limit: limit + 1,
    side,
    action: query.action?.trim() || undefined,
    operatorEmail: query.operator_email?.trim().toLowerCase() || undefined,
    createdGte: parseBound('created_gte', query.created_gte),
    createdLt: parseBound('created_lt', query.created_lt),
  });
  return auditPageOf(ctx, rows, limit, side);
}
