import pino, { type Logger } from 'pino';
import { createAppContext } from '../app/create-context.ts';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { ConfigError, readOptionalInteger } from '../config-values.ts';
import { GatewayRegistry } from '../gateways/registry.ts';
import { startConfiguredMetricsServer } from '../observability/metrics-server.ts';
import { SharedTestClock } from '../shared-test-clock.ts';
import { migrate } from '../storage/migrate.ts';
import { openDatabase } from '../storage/open.ts';
import { createDeliveryWorker, type DeliveryWorkerOptions } from '../webhooks/delivery-worker.ts';

/**
 * Tuning of the delivery worker from the environment (all optional; ranges in config-schema.ts): PAYGATE_WEBHOOK_CONCURRENCY
 * (attempts in flight per process, default 64), PAYGATE_WEBHOOK_BATCH_SIZE (rows per claim, 50),
 * PAYGATE_WEBHOOK_POLL_MS (fallback poll, 5000), PAYGATE_WEBHOOK_LEASE_SECONDS (60) and
 * PAYGATE_WEBHOOK_TIMEOUT_MS (10000; the contract's 10 s, lowered only by tests).
 */
export function deliveryWorkerOptionsFromEnv(env: NodeJS.ProcessEnv): DeliveryWorkerOptions {
  const options: DeliveryWorkerOptions = {
    concurrency: readOptionalInteger(env, 'PAYGATE_WEBHOOK_CONCURRENCY'),
    batchSize: readOptionalInteger(env, 'PAYGATE_WEBHOOK_BATCH_SIZE'),
    pollIntervalMs: readOptionalInteger(env, 'PAYGATE_WEBHOOK_POLL_MS'),
    leaseSeconds: readOptionalInteger(env, 'PAYGATE_WEBHOOK_LEASE_SECONDS'),
    timeoutMs: readOptionalInteger(env, 'PAYGATE_WEBHOOK_TIMEOUT_MS'),
  };
  const leaseMs = (options.leaseSeconds ?? 60) * 1000;
  if (leaseMs <= (options.timeoutMs ?? 10_000)) {
    // A lease shorter than an attempt would let a second worker take a delivery still in flight.
    throw new ConfigError(
      `PAYGATE_WEBHOOK_LEASE_SECONDS=${options.leaseSeconds ?? 60} is not valid; allowed: more seconds than PAYGATE_WEBHOOK_TIMEOUT_MS (${options.timeoutMs ?? 10_000} ms)`,
    );
  }
  return options;
}

export interface WorkerProcess {
  logger: Logger;
  stop(): Promise<void>;
}

/**
 * `paygate worker`: the webhook delivery worker alone, without HTTP, over the configured
 * database. Run any number of them beside the API processes (PostgreSQL only: the embedded
 * database belongs to one process).
 */
export async function startWorkerProcess(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WorkerProcess> {
  const logger = pino({ level: config.logLevel });
  const options = deliveryWorkerOptionsFromEnv(env);
  const db = await openDatabase(config);
  if (config.migrateOnStart) {
    const applied = await migrate(db);
    if (applied.length) logger.info({ applied }, 'database migrated');
  }
  // The retry schedule follows the deployment's test clock, wherever it is advanced.
  let wake = () => {};
  const testClock = config.testClock ? new SharedTestClock(db, () => wake()) : null;
  await testClock?.start();
  const clock: Clock = testClock ?? systemClock;
  const ctx = createAppContext({
    db,
    clock,
    gateways: new GatewayRegistry([]),
    masterKey: config.masterKey,
    publicUrl: config.publicUrl,
    testWebhooksAllowLoopback: config.testWebhooksAllowLoopback,
  });
  const worker = createDeliveryWorker(ctx, { ...options, logger });
  await worker.start();
  wake = () => worker.wake();
  const metrics = await startConfiguredMetricsServer(config, ctx.metrics.registry);
  logger.info(
    { pid: process.pid, ...(metrics ? { metrics: `${metrics.url}/metrics` } : {}) },
    'webhook delivery worker started',
  );
  return {
    logger,
    async stop() {
      await worker.stop();
      await testClock?.stop();
      await metrics?.close();
      await db.close();
    },
  };
}
