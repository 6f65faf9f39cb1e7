import { randomBytes } from 'node:crypto';
import { type GatewaySim, startGatewaySim } from '@paygate/gateway-sim';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { AppContext } from './app/context.ts';
import { createAppContext } from './app/create-context.ts';
import { ensureDemoMerchant, welcomeText } from './cli/demo-merchant.ts';
import { type Clock, ShiftedClock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { GatewayConnector } from './gateways/connector.ts';
import { GatewayRegistry } from './gateways/registry.ts';
import { createSimConnector } from './gateways/sim/connector.ts';
import { buildHttpApp } from './http/app.ts';
import type { Database } from './storage/db.ts';
import { migrate } from './storage/migrate.ts';
import { openDatabase } from './storage/open.ts';
import { createDeliveryWorker } from './webhooks/delivery-worker.ts';
import { deliveryWorkerOptionsFromEnv } from './webhooks/worker-process.ts';
import {
  DELAYED_CHARGES_JOB,
  delayedChargesJob,
  RECONCILIATION_JOB,
  reconciliationJob,
} from './workers/charges.ts';
import { EXPIRY_JOB, expiryJob } from './workers/expiry.ts';
import { idempotencySweeper } from './workers/idempotency-sweeper.ts';
import { LATE_CAPTURE_REPAIR_JOB, lateCaptureRepairJob } from './workers/late-captures.ts';
import { REFUND_RECONCILIATION_JOB, refundReconciliationJob } from './workers/refunds.ts';
import { type Scheduler, startScheduler } from './workers/scheduler.ts';

export interface RunningService {
  ctx: AppContext;
  http: FastifyInstance;
  logger: Logger;
  baseUrl: string;
  sim: GatewaySim | null;
  stop(): Promise<void>;
}

/**
 * The simulated gateway runs in this process on its own port (its own origin), reading the same
 * clock, so the test clock moves both. Its shared secrets live only in memory.
 */
async function startSim(
  config: Config,
  clock: Clock,
): Promise<{ sim: GatewaySim; connector: GatewayConnector }> {
  const apiSecret = randomBytes(24).toString('base64url');
  const notificationSecret = randomBytes(24).toString('base64url');
  const sim = await startGatewaySim({
    port: config.simPort ?? 0,
    host: config.host,
    apiSecret,
    notificationSecret,
    notificationUrl: `http://127.0.0.1:${config.port}/gateway-notifications/sim`,
    clock,
  });
  const connector = createSimConnector({ baseUrl: sim.url, apiSecret, notificationSecret, clock });
  return { sim, connector };
}

export async function startService(config: Config): Promise<RunningService> {
  const logger = pino({ level: config.logLevel });
  const clock = config.testClock ? new ShiftedClock(systemClock) : systemClock;
  const db: Database = await openDatabase(config);
  if (config.migrateOnStart) {
    const applied = await migrate(db);
    if (applied.length) logger.info({ applied }, 'database migrated');
  }

  const simulated = config.simPort !== null ? await startSim(config, clock) : null;
  const gateways = new GatewayRegistry(simulated ? [simulated.connector] : []);
  const ctx = createAppContext({
    db,
    clock,
    gateways,
    masterKey: config.masterKey,
    publicUrl: config.publicUrl,
    testWebhooksAllowLoopback: config.testWebhooksAllowLoopback,
  });

  // Moving the test clock wakes the time-driven jobs (the scheduler starts after the listen).
  let wakeTimeDrivenJobs = () => {};
  const http = await buildHttpApp(ctx, {
    adminToken: config.adminToken,
    rateLimitPerSecond: config.rateLimitPerSecond,
    unauthenticatedRateLimitPerSecond: config.unauthenticatedRateLimitPerSecond,
    redisUrl: config.redisUrl,
    logLevel: config.logLevel,
    testClock: clock instanceof ShiftedClock ? clock : null,
    onTestClockAdvance: () => wakeTimeDrivenJobs(),
  });
  await http.listen({ port: config.port, host: config.host });
  // The simulator notifies this process; with PORT=0 only the listening socket knows the port.
  const address = http.server.address();
  if (simulated && address !== null && typeof address === 'object') {
    simulated.sim.setNotificationUrl(`http://127.0.0.1:${address.port}/gateway-notifications/sim`);
  }

  const scheduler: Scheduler = startScheduler(
    [
      idempotencySweeper(db, clock),
      expiryJob(ctx),
      delayedChargesJob(ctx, logger),
      reconciliationJob(ctx, logger),
      refundReconciliationJob(ctx, logger),
      lateCaptureRepairJob(ctx, logger),
    ],
    logger,
  );
  // Webhook deliveries: woken by every committed event (LISTEN) and by a slow fallback poll.
  const webhookWorker = createDeliveryWorker(ctx, { ...deliveryWorkerOptionsFromEnv(process.env), logger });
  await webhookWorker.start();
  wakeTimeDrivenJobs = () => {
    for (const name of [
      EXPIRY_JOB,
      DELAYED_CHARGES_JOB,
      RECONCILIATION_JOB,
      REFUND_RECONCILIATION_JOB,
      LATE_CAPTURE_REPAIR_JOB,
    ]) {
      scheduler.wake(name);
    }
    webhookWorker.wake();
  };
  const demo = await ensureDemoMerchant(ctx);
  process.stdout.write(
    welcomeText({
      baseUrl: config.publicUrl,
      demo,
      // An operator-provided token is never echoed; a generated one is shown on the first start.
      adminToken:
        config.adminTokenSource === 'generated' || (demo && config.adminTokenSource === 'data-dir')
          ? config.adminToken
          : null,
    }),
  );

  return {
    ctx,
    http,
    logger,
    baseUrl: config.publicUrl,
    sim: simulated?.sim ?? null,
    async stop() {
      // Order matters: stop taking requests (in-flight ones finish), then workers, then the database.
      await http.close();
      await scheduler.stop();
      await webhookWorker.stop();
      await simulated?.sim.close();
      await db.close();
    },
  };
}
