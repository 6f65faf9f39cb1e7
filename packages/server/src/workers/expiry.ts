import type { AppContext } from '../app/context.ts';
import { expireDueIntents } from '../app/payments/expire-payment-intents.ts';
import type { ScheduledJob } from './scheduler.ts';

export const EXPIRY_JOB = 'payment-intent-expiry';
const BATCH_SIZE = 200;

/** Expires CREATED and REQUIRES_ACTION intents past `expires_at` (`payment_intent.expired`). */
export function expiryJob(ctx: AppContext): ScheduledJob {
  return {
    name: EXPIRY_JOB,
    intervalMs: 5_000,
    batchSize: BATCH_SIZE,
    run: () => expireDueIntents(ctx, BATCH_SIZE),
  };
}
