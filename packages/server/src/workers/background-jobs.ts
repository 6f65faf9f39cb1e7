import type { Logger } from 'pino';
import type { AppContext } from '../app/context.ts';
import type { Config } from '../config.ts';
import { configuredMailer } from '../mail/mailer.ts';
import {
  AUTHORIZATION_LAPSE_JOB,
  AUTHORIZATION_REPAIR_JOB,
  authorizationLapseJob,
  authorizationRepairJob,
} from './authorizations.ts';
import { DELAYED_CHARGES_JOB, delayedChargesJob, RECONCILIATION_JOB, reconciliationJob } from './charges.ts';
import { EXPIRY_JOB, expiryJob } from './expiry.ts';
import { gatewayReconciliationJob } from './gateway-reconciliation.ts';
import { idempotencySweeper } from './idempotency-sweeper.ts';
import { LATE_CAPTURE_REPAIR_JOB, lateCaptureRepairJob } from './late-captures.ts';
import { mailJob } from './mail.ts';
import { REFUND_RECONCILIATION_JOB, refundReconciliationJob } from './refunds.ts';
import { GATEWAY_DETACH_REPAIR_JOB, gatewayDetachRepairJob } from './saved-payment-methods.ts';
import { type Scheduler, startScheduler } from './scheduler.ts';
import { ROTATION_EXPIRY_JOB, rotationExpiryJob } from './webhook-rotations.ts';

/** The jobs a moved test clock makes due at once (the webhook worker is woken beside them). */
export const TIME_DRIVEN_JOBS = [
  EXPIRY_JOB,
  DELAYED_CHARGES_JOB,
  RECONCILIATION_JOB,
  REFUND_RECONCILIATION_JOB,
  LATE_CAPTURE_REPAIR_JOB,
  ROTATION_EXPIRY_JOB,
  AUTHORIZATION_LAPSE_JOB,
  AUTHORIZATION_REPAIR_JOB,
  GATEWAY_DETACH_REPAIR_JOB,
] as const;

/**
 * Every scheduled job of a deployment, in the one process that runs them (`paygate start`, or
 * the scheduler process of `paygate start --processes N`). `booksSince`: nothing before it is
 * compared with the gateway's books (a simulator started with this deployment knows nothing older).
 * `mail`: the SMTP settings of the mail outbox's sender (null: mail is off, said once at start).
 */
export function startBackgroundJobs(
  ctx: AppContext,
  logger: Logger,
  booksSince: Date | null,
  mail: Config['mail'],
): Scheduler {
  const mailer = configuredMailer(mail && { url: mail.smtpUrl, from: mail.from }, logger);
  const scheduler = startScheduler(
    [
      rotationExpiryJob(ctx),
      ...(mailer ? [mailJob(ctx, mailer, logger)] : []),
      idempotencySweeper(ctx.db, ctx.clock),
      expiryJob(ctx),
      delayedChargesJob(ctx, logger),
      reconciliationJob(ctx, logger),
      refundReconciliationJob(ctx, logger),
      lateCaptureRepairJob(ctx, logger),
      authorizationLapseJob(ctx),
      authorizationRepairJob(ctx, logger),
      gatewayDetachRepairJob(ctx, logger),
      gatewayReconciliationJob(ctx, logger, { notBefore: booksSince }),
    ],
    logger,
  );
  return {
    wake: (name) => scheduler.wake(name),
    async stop() {
      await scheduler.stop();
      mailer?.close();
    },
  };
}
