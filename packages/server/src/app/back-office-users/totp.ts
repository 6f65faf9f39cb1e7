import QRCode from 'qrcode';
import { type ThrottleKind, throttleSubject } from '../../domain/attempt-throttle.ts';
import { AppError } from '../../domain/errors.ts';
import { secretDigest } from '../../domain/secret-digest.ts';
import {
  newRecoveryCodes,
  newTotpSecret,
  normaliseRecoveryCode,
  totpStepOf,
  totpUri,
} from '../../domain/totp.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  lockTotpState,
  replaceRecoveryCodes,
  saveTotpState,
  useRecoveryCode,
} from '../../storage/repositories/dashboard-totp.ts';
import type { DashboardUserRow } from '../../storage/repositories/dashboard-users.ts';
import type { AppContext } from '../context.ts';
import { countAttempt, takeBackAttempt } from './attempt-throttle.ts';
import { recordAudit } from './audit.ts';

/** The secret is sealed for its user: a sealed value copied onto another user's row does not open. */
const sealFor = (userId: string) => `dashboard-totp:${userId}`;

function wrongCode(): AppError {
  return new AppError('validation_error', 'code: is not the current authentication code', {
    errors: [{ field: 'code', message: 'is not the current authentication code' }],
  });
}

/**
 * Whose second factor it is: a dashboard user or an operator of the console (ids never collide:
 * `usr_…`, `opu_…`), with the throttle their sign-ins count on and their own audit log.
 */
export interface TotpHolder {
  id: string;
  email: string;
  throttle: ThrottleKind;
  audit(tx: Queryable, now: Date, action: 'totp.enabled' | 'totp.disabled'): Promise<void>;
}

/** A dashboard user as the holder of a second factor (audited in the merchant's log). */
export function dashboardTotpHolder(user: DashboardUserRow): TotpHolder {
  return {
    id: user.id,
    email: user.email,
    throttle: 'sign-in',
    audit: (tx, now, action) =>
      recordAudit(tx, now, { merchantId: user.merchant_id, userId: user.id, action }),
  };
}

export async function totpStatus(ctx: AppContext, userId: string): Promise<{ enabled: boolean }> {
  const state = await lockTotpState(ctx.db, userId);
  return { enabled: Boolean(state?.enabled_at) };
}

/**
 * Starts enrolment: a new secret, sealed with the master key, that counts only once a code from
 * it is confirmed. Answers what the authenticator app needs: the otpauth URI, the key in base32
 * and the QR code as SVG drawn here (no third party ever sees the secret).
 */
export async function startTotpEnrolment(ctx: AppContext, user: TotpHolder) {
  const secret = newTotpSecret();
  await ctx.db.transaction(async (tx) => {
    const state = await lockTotpState(tx, user.id);
    if (state?.enabled_at) {
      throw new AppError('invalid_state_transition', 'Two-step sign-in is already on; turn it off first.');
    }
    await saveTotpState(tx, user.id, {
      secret_sealed: ctx.secretBox.encrypt(secret, sealFor(user.id)),
      enabled_at: null,
      last_step: null,
    });
  });
  return enrolmentView(secret, user.email);
}

async function enrolmentView(secret: string, account: string) {
  const uri = totpUri(secret, account);
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUri: uri, qrSvg };
}

/** The enrolment begun and not yet confirmed (the page shows its QR code again), or null. */
export async function pendingEnrolment(ctx: AppContext, user: TotpHolder) {
  const state = await lockTotpState(ctx.db, user.id);
  if (!state?.secret_sealed || state.enabled_at) return null;
  return enrolmentView(ctx.secretBox.decrypt(state.secret_sealed, sealFor(user.id)), user.email);
}

/** Confirms enrolment with a code of the new secret; answers ten recovery codes, shown once. */
export async function confirmTotpEnrolment(ctx: AppContext, user: TotpHolder, code: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const state = await lockTotpState(tx, user.id);
    if (!state?.secret_sealed || state.enabled_at) {
      throw new AppError(
        'invalid_state_transition',
        'Start the enrolment first (or two-step sign-in is already on).',
      );
    }
    const step = totpStepOf(ctx.secretBox.decrypt(state.secret_sealed, sealFor(user.id)), code.trim(), now);
    if (step === null) throw wrongCode();
    await saveTotpState(tx, user.id, { ...state, enabled_at: now, last_step: step });
    const codes = newRecoveryCodes();
    await replaceRecoveryCodes(
      tx,
      user.id,
      codes.map((c) => secretDigest(normaliseRecoveryCode(c))),
    );
    await user.audit(tx, now, 'totp.enabled');
    return { recoveryCodes: codes };
  });
}

/**
 * Turns the second factor off; it takes a current code (or a recovery code), not just a session.
 * A wrong code is a failed sign-in of the user's address (the same throttle), so a stolen session
 * cannot guess codes faster than a sign-in could.
 */
export async function disableTotp(ctx: AppContext, user: TotpHolder, code: string): Promise<void> {
  const subject = throttleSubject(user.throttle, user.email);
  await countAttempt(ctx, subject, 'sign-ins');
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    if ((await checkSecondFactor(ctx, tx, user.id, code, now)) !== 'passed') throw wrongCode();
    await takeBackAttempt(tx, subject, now);
    await saveTotpState(tx, user.id, { secret_sealed: null, enabled_at: null, last_step: null });
    await replaceRecoveryCodes(tx, user.id, []);
    await user.audit(tx, now, 'totp.disabled');
  });
}

/**
 * The second factor at sign-in, in the sign-in's transaction: `off` when the user has none,
 * `missing` without a code, `passed` for a code of a step not used before (or an unused recovery
 * code, then spent), else `failed`.
 */
export async function checkSecondFactor(
  ctx: AppContext,
  tx: Queryable,
  userId: string,
  code: string | undefined,
  now: Date,
): Promise<'off' | 'missing' | 'passed' | 'failed'> {
  const state = await lockTotpState(tx, userId);
  if (!state?.enabled_at || !state.secret_sealed) return 'off';
  const presented = code?.trim() ?? '';
  if (presented === '') return 'missing';
  const step = totpStepOf(ctx.secretBox.decrypt(state.secret_sealed, sealFor(userId)), presented, now);
  if (step !== null) {
    if (state.last_step !== null && step <= state.last_step) return 'failed';
    await saveTotpState(tx, userId, { ...state, last_step: step });
    return 'passed';
  }
  if (/^\d{6}$/.test(presented)) return 'failed';
  return (await useRecoveryCode(tx, userId, secretDigest(normaliseRecoveryCode(presented)), now))
    ? 'passed'
    : 'failed';
}
