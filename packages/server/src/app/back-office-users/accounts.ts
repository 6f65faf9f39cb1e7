import { randomBytes } from 'node:crypto';
import { type ThrottleKind, throttleSubject } from '../../domain/attempt-throttle.ts';
import type { DashboardRole } from '../../domain/dashboard-roles.ts';
import { AppError, AuthenticationError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { newId, randomBase62 } from '../../domain/ids.ts';
import {
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  verifyPassword,
} from '../../domain/passwords.ts';
import { secretDigest } from '../../domain/secret-digest.ts';
import { queueMail } from '../../mail/queue.ts';
import type { Queryable } from '../../storage/db.ts';
import { findUserEmail } from '../../storage/repositories/dashboard-team.ts';
import {
  type DashboardUserRow,
  deleteSession,
  deleteSessionsOfUser,
  findInvitationForUpdate,
  findLiveSession,
  findUserByEmail,
  insertInvitation,
  insertSession,
  insertUser,
  markInvitationAccepted,
  type SessionRow,
} from '../../storage/repositories/dashboard-users.ts';

/** What a signed-in session resolves to, for the HTTP layer's request decoration. */
export type { DashboardUserRow, SessionRow } from '../../storage/repositories/dashboard-users.ts';

import { isEmailAddress } from '../../domain/email.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { clearAttempts, countAttempt, takeBackAttempt } from './attempt-throttle.ts';
import { recordAudit } from './audit.ts';
import { invitationMail, type MailLanguage } from './invitation-mail.ts';
import { checkSecondFactor } from './totp.ts';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

function normaliseEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (!isEmailAddress(email)) {
    throw new ValidationError('email', 'must be an e-mail address');
  }
  return email;
}

/**
 * An invitation to join `merchantId` with `role`; answers the token, shown once (the invitee
 * sets a password with it), and the link to hand over: the token rides in its #fragment, which
 * browsers never send, so no server log sees it. `invitedBy` is null when the operator invites
 * (the first owner). `audit` writes in the same transaction (the operator console's audit line).
 */
export async function inviteUser(
  ctx: AppContext,
  merchantId: string,
  input: { email: string; role: DashboardRole },
  invitedBy: string | null,
  language: MailLanguage = 'en',
  audit?: (tx: Queryable, merchantId: string) => Promise<void>,
): Promise<{ token: string; email: string; role: DashboardRole; expiresAt: Date; acceptUrl: string }> {
  const email = normaliseEmail(input.email);
  const token = `inv_${randomBase62(32)}`;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS);
  await ctx.db.transaction(async (tx) => {
    const merchant = await findMerchant(tx, merchantId);
    if (!merchant) throw new NotFoundError('merchant', merchantId);
    if (await findUserByEmail(tx, email))
      throw new ValidationError('email', 'already belongs to a dashboard user');
    await insertInvitation(tx, {
      token_hash: secretDigest(token),
      merchant_id: merchantId,
      email,
      role: input.role,
      invited_by: invitedBy,
      expires_at: expiresAt,
      accepted_at: null,
      created_at: now,
    });
    await recordAudit(tx, now, {
      merchantId,
      userId: invitedBy,
      action: 'invitation.created',
      target: email,
    });
    const acceptUrl = `${ctx.publicUrl}/dashboard/accept-invitation?lang=${language}&token=${token}`;
    const facts = {
      merchantName: merchant.name,
      invitedBy: invitedBy ? await findUserEmail(tx, invitedBy) : null,
      role: input.role,
      acceptUrl,
      expiresAt,
    };
    // The token's digest names the invitation without being the secret.
    const dedupeKey = `invitation:${secretDigest(token)}`;
    await queueMail(tx, now, { ...invitationMail(language, facts, dedupeKey), merchantId, to: [email] });
    await audit?.(tx, merchantId);
  });
  const acceptUrl = `${ctx.publicUrl}/dashboard/accept-invitation#${token}`;
  return { token, email, role: input.role, expiresAt, acceptUrl };
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new ValidationError(
      'password',
      `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`,
    );
  }
}

/**
 * Turns an open invitation into a user with the password chosen; the token works once. Tokens
 * that open nothing are failures of the client address (`clientAddress`), throttled like sign-ins.
 */
export async function acceptInvitation(
  ctx: AppContext,
  input: { token: string; password: string },
  clientAddress: string,
): Promise<{ userId: string; merchantId: string }> {
  checkPassword(input.password);
  const subject = throttleSubject('invitation', clientAddress);
  await countAttempt(ctx, subject, 'invitation acceptances from this address');
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const invitation = await findInvitationForUpdate(tx, secretDigest(input.token));
    if (!invitation || invitation.accepted_at || invitation.expires_at <= now) {
      throw new ValidationError('token', 'is unknown, expired or already used; ask for a new invitation');
    }
    if (await findUserByEmail(tx, invitation.email)) {
      throw new ValidationError('token', 'its address already belongs to a dashboard user');
    }
    const userId = newId('usr');
    await insertUser(tx, {
      id: userId,
      merchant_id: invitation.merchant_id,
      email: invitation.email,
      role: invitation.role,
      password_hash: passwordHash,
      created_at: now,
    });
    await markInvitationAccepted(tx, invitation.token_hash, now);
    await clearAttempts(tx, subject);
    await recordAudit(tx, now, {
      merchantId: invitation.merchant_id,
      userId,
      action: 'invitation.accepted',
      target: invitation.email,
    });
    return { userId, merchantId: invitation.merchant_id };
  });
}

/** Compared against when the address is unknown, so that timing does not tell which addresses exist. */
let decoyHash: Promise<string> | null = null;

function signInFailed(): AppError {
  return new AuthenticationError('invalid_credentials', 'The e-mail address or the password is wrong.');
}

/** A new session's row: the id only as its digest, with the session's CSRF token. */
export interface NewSession {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  expires_at: Date;
  created_at: Date;
}

/**
 * One kind of account that signs in with a password (and a second factor when it enabled one):
 * the dashboard's users, the operator's console's operators. Both sign in by `openSession`, under
 * the same throttling, timing and audit rules.
 */
export interface AccountKind<User extends { id: string; password_hash: string }> {
  throttle: ThrottleKind;
  findByEmail(q: Queryable, email: string): Promise<User | null>;
  insertSession(tx: Queryable, row: NewSession): Promise<void>;
  audit(tx: Queryable, now: Date, user: User, action: 'sign_in.failed' | 'sign_in.succeeded'): Promise<void>;
}

const dashboardAccounts: AccountKind<DashboardUserRow> = {
  throttle: 'sign-in',
  findByEmail: findUserByEmail,
  insertSession,
  audit: (tx, now, user, action) =>
    recordAudit(tx, now, { merchantId: user.merchant_id, userId: user.id, action }),
};

/**
 * Checks the password and opens a session: answers the session id (the cookie's value, never
 * stored) and its CSRF token. Every attempt is counted for the address before the password is
 * checked (`countAttempt`), known address or not, so concurrent guesses each count and the answers
 * (401, then 429 with Retry-After once FREE_FAILURES failures are counted) and their
 * timing (the same scrypt work) are the same for an address no user has.
 */
export function signIn(
  ctx: AppContext,
  input: { email: string; password: string; totp_code?: string },
): Promise<{ sessionId: string; csrfToken: string; user: DashboardUserRow }> {
  return openSession(ctx, dashboardAccounts, input);
}

/** `signIn` for any kind of account (see AccountKind). */
export async function openSession<User extends { id: string; password_hash: string }>(
  ctx: AppContext,
  kind: AccountKind<User>,
  input: { email: string; password: string; totp_code?: string },
): Promise<{ sessionId: string; csrfToken: string; user: User }> {
  const email = input.email.trim().toLowerCase();
  const subject = throttleSubject(kind.throttle, email);
  await countAttempt(ctx, subject, 'sign-ins');
  const user = await kind.findByEmail(ctx.db, email);
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  const good = (await verifyPassword(input.password, user?.password_hash ?? (await decoyHash))) && !!user;
  if (!user) throw signInFailed();
  const now = ctx.clock.now();
  const opened = await ctx.db.transaction(async (tx) => {
    // A right password with a wrong second factor is a failure (it stays counted); a missing code
    // is not, the form just asks for it.
    const second = good ? await checkSecondFactor(ctx, tx, user.id, input.totp_code, now) : 'failed';
    if (second === 'missing') {
      await takeBackAttempt(tx, subject, now);
      return 'second_factor_missing' as const;
    }
    if (!good || second === 'failed') {
      await kind.audit(tx, now, user, 'sign_in.failed');
      return null;
    }
    await clearAttempts(tx, subject);
    const sessionId = randomBase62(43);
    const csrfToken = randomBase62(43);
    await kind.insertSession(tx, {
      id_hash: secretDigest(sessionId),
      user_id: user.id,
      csrf_token: csrfToken,
      expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS),
      created_at: now,
    });
    await kind.audit(tx, now, user, 'sign_in.succeeded');
    return { sessionId, csrfToken, user };
  });
  if (opened === 'second_factor_missing') {
    throw new AppError('invalid_credentials', 'Two-step sign-in is on: send the authentication code too.', {
      errors: [{ field: 'totp_code', message: 'is required: two-step sign-in is on for this user' }],
    });
  }
  if (!opened) throw signInFailed();
  return opened;
}

/** The session a cookie names, or null when it is unknown or expired. */
export async function resolveSession(
  ctx: AppContext,
  sessionId: string,
): Promise<{ session: SessionRow; user: DashboardUserRow } | null> {
  return findLiveSession(ctx.db, secretDigest(sessionId), ctx.clock.now());
}

export async function signOut(ctx: AppContext, user: DashboardUserRow, sessionId: string): Promise<void> {
  await ctx.db.transaction(async (tx: Queryable) => {
    await deleteSession(tx, secretDigest(sessionId));
    await recordAudit(tx, ctx.clock.now(), {
      merchantId: user.merchant_id,
      userId: user.id,
      action: 'sign_out',
    });
  });
}

/** Ends every session of the user, on every device (this one included). */
export async function signOutEverywhere(ctx: AppContext, user: DashboardUserRow): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const ended = await deleteSessionsOfUser(tx, user.id);
    await recordAudit(tx, ctx.clock.now(), {
      merchantId: user.merchant_id,
      userId: user.id,
      action: 'sign_out.everywhere',
    });
    return ended;
  });
}
