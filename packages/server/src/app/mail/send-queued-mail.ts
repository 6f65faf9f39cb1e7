import { randomBase62 } from '../../domain/ids.ts';
import { backoffDelayMs } from '../../domain/retry-schedules.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { claimDueMail, finishMailAttempt } from '../../storage/repositories/mail-outbox.ts';
import type { WorkerLogger } from '../../webhooks/attempt-outcomes.ts';
import type { AppContext } from '../context.ts';

/** A claimed message is held this long: longer than an SMTP exchange can take. */
const MAIL_LEASE_MS = 120_000;
/** Attempts before a message is given up (FAILED): about a day of retries. */
export const MAIL_MAX_ATTEMPTS = 10;

/**
 * A message older than this is dropped unsent (FAILED, `expired`): a notice about a failing
 * endpoint queued while mail was off is stale news once mail is turned on days later.
 */
export const MAIL_MAX_AGE_MS = 3 * 24 * 3600_000;

/** 1, 2, 4, ... minutes, at most 4 hours between attempts of one message. */
const MAIL_BACKOFF = { firstMs: 60_000, maxMs: 4 * 3600_000 };

/** The pause after the n-th failed attempt (n from 1), by `MAIL_BACKOFF`. */
export function mailRetryDelayMs(attempt: number): number {
  return backoffDelayMs(MAIL_BACKOFF, attempt - 1);
}

/** The error of a failed send, short and without the message itself. */
function describeMailError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  return `${code ? `${code}: ` : ''}${message}`.slice(0, 300);
}

/**
 * Sends one batch of queued mail: claims due messages (any number of processes may run this
 * side by side), sends each, and records the outcome under the claim. A process that dies
 * between the SMTP server's acceptance and the record leaves a lease that expires, and the
 * message is sent again with the same Message-ID: at least once, never lost.
 */
export async function sendQueuedMail(
  ctx: AppContext,
  mailer: Mailer,
  options: { limit: number; logger: WorkerLogger },
): Promise<number> {
  const now = ctx.clock.now();
  const claimToken = randomBase62(20);
  const claimed = await claimDueMail(ctx.db, {
    now,
    leaseUntil: new Date(now.getTime() + MAIL_LEASE_MS),
    claimToken,
    limit: options.limit,
  });
  for (const message of claimed) {
    if (now.getTime() - message.createdAt.getTime() > MAIL_MAX_AGE_MS) {
      const error = 'expired: queued more than 3 days before it could be sent';
      await finishMailAttempt(ctx.db, {
        id: message.id,
        claimToken,
        sentAt: null,
        nextAttemptAt: null,
        error,
      });
      continue;
    }
    try {
      await mailer.send({
        to: message.recipients,
        subject: message.subject,
        text: message.bodyText,
        messageId: `<${message.id}@paygate.invalid>`,
      });
      await finishMailAttempt(ctx.db, {
        id: message.id,
        claimToken,
        sentAt: ctx.clock.now(),
        nextAttemptAt: null,
        error: null,
      });
      options.logger.info({ mail_id: message.id, recipients: message.recipients.length }, 'mail sent');
    } catch (error) {
      const attempt = message.attempts + 1;
      const next =
        attempt >= MAIL_MAX_ATTEMPTS ? null : new Date(ctx.clock.now().getTime() + mailRetryDelayMs(attempt));
      const reason = describeMailError(error);
      await finishMailAttempt(ctx.db, {
        id: message.id,
        claimToken,
        sentAt: null,
        nextAttemptAt: next,
        error: reason,
      });
      options.logger.warn(
        { mail_id: message.id, attempt, error: reason, gave_up: next === null },
        'mail not sent',
      );
    }
  }
  return claimed.length;
}
