import type { AppContext } from '../app/context.ts';
import { sendQueuedMail } from '../app/mail/send-queued-mail.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { WorkerLogger } from '../webhooks/attempt-outcomes.ts';
import type { ScheduledJob } from './scheduler.ts';

export const MAIL_JOB = 'mail-outbox';
const BATCH_SIZE = 20;

/** Sends queued mail (the outbox in `mail_outbox`); scheduled only when SMTP is configured. */
export function mailJob(ctx: AppContext, mailer: Mailer, logger: WorkerLogger): ScheduledJob {
  return {
    name: MAIL_JOB,
    intervalMs: 5_000,
    batchSize: BATCH_SIZE,
    run: () => sendQueuedMail(ctx, mailer, { limit: BATCH_SIZE, logger }),
  };
}
