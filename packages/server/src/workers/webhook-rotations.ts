import type { AppContext } from '../app/context.ts';
import { closeExpiredWebhookRotations } from '../app/webhooks/close-expired-rotations.ts';
import type { ScheduledJob } from './scheduler.ts';

export const ROTATION_EXPIRY_JOB = 'webhook-rotation-expiry';
const BATCH_SIZE = 200;

/** Closes webhook secret rotations whose expiry has passed (opened with one from the back office). */
export function rotationExpiryJob(ctx: AppContext): ScheduledJob {
  return {
    name: ROTATION_EXPIRY_JOB,
    intervalMs: 5_000,
    batchSize: BATCH_SIZE,
    run: () => closeExpiredWebhookRotations(ctx, BATCH_SIZE),
  };
}
