import type { GatewaySim } from '@paygate/gateway-sim';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { AppContext } from './app/context.ts';
import { createAppContext } from './app/create-context.ts';
import { ensureDemoMerchant, welcomeText } from './app/merchants/demo-merchant.ts';
import { backOfficeWing } from './backoffice/wing.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { invalid } from './config-values.ts';
import { configuredConnectors, GatewayRegistry } from './gateways/registry.ts';
import { type SimulatedGateway, simulatedGateway } from './gateways/sim/deployment.ts';
import { buildHttpApp } from './http/app.ts';
import { type MetricsServer, startConfiguredMetricsServer } from './observability/metrics-server.ts';
import { SharedTestClock } from './shared-test-clock.ts';
import type { Database } from './storage/db.ts';
import { migrate } from './storage/migrate.ts';
import { openDatabase } from './storage/open.ts';
import { createDeliveryWorker, type DeliveryWorker } from './webhooks/delivery-worker.ts';
import { startBackgroundJobs, TIME_DRIVEN_JOBS } from './workers/background-jobs.ts';
import { deliveryWorkerOptionsFromEnv } from './workers/delivery-process.ts';
import type { Scheduler } from './workers/scheduler.ts';

export interface RunningService {
  ctx: AppContext;
  http: FastifyInstance;
  logger: Logger;
  baseUrl: string;
  sim: GatewaySim | null;
  /** The metrics listener, when PAYGATE_METRICS_PORT is set. */
  metrics: MetricsServer | null;
  stop(): Promise<void>;
}

/** A port already taken is a configuration problem: say which variable moves it. */
async function listenOrExplain<T>(
  variable: string,
  port: number,
  listen: () => Promise<T>,
  alternative = '',
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
      throw invalid(
        variable,
        String(port),
        `a free port number: set ${variable} to another port${alternative ? ` ${alternative}` : ''}`,
        'the port is already in use by another process',
      );
    }
    throw error;
  }
}

/** How much of the service one process runs (`paygate start --processes N` splits it). */
export interface ServiceRole {
  /** The scheduled jobs and the webhook delivery worker (default); false: HTTP only. */
  background: boolean;
  /** The demo merchant and the welcome text (default); false in all but one API process. */
  welcome: boolean;
}

export async function startService(
  config: Config,
  role: ServiceRole = { background: true, welcome: true },
): Promise<RunningService> {
  const logger = pino({ level: config.logLevel });
  const db: Database = await openDatabase({ ...config, log: logger });
  if (config.migrateOnStart) {
    const applied = await migrate(db);
    if (applied.length) logger.info({ applied }, 'database migrated');
  }
  // Moving the test clock (here or in another process) wakes the time-driven jobs; the scheduler
  // starts after the listen.
  let wakeTimeDrivenJobs = () => {};
  const testClock = config.testClock ? new SharedTestClock(db, () => wakeTimeDrivenJobs()) : null;
  await testClock?.start();
  const clock: Clock = testClock ?? systemClock;

  let simulated: SimulatedGateway | null = null;
  try {
    simulated = await listenOrExplain(
      'PAYGATE_SIM_PORT',
      config.simPort ?? 0,
      () => simulatedGateway(config, clock),
      'or PAYGATE_SIM=off to run without the simulated gateway',
    );
  } catch (error) {
    await testClock?.stop();
    await db.close();
    throw error;
  }
  const gateways = new GatewayRegistry([
    ...(simulated ? [simulated.connector] : []),
    ...configuredConnectors(process.env, { clock, logger }),
  ]);
  const ctx = createAppContext({
    db,
    clock,
    gateways,
    masterKey: config.masterKey,
    publicUrl: config.publicUrl,
    gatewayLogger: logger,
    logger,
    testWebhooksAllowLoopback: config.testWebhooksAllowLoopback,
  });

  const http = await buildHttpApp(ctx, {
    backOffice: backOfficeWing(ctx),
    adminToken: config.adminToken,
    rateLimitPerSecond: config.rateLimitPerSecond,
    unauthenticatedRateLimitPerSecond: config.unauthenticatedRateLimitPerSecond,
    redisUrl: config.redisUrl,
    logLevel: config.logLevel,
    testClock,
    onTestClockAdvance: () => wakeTimeDrivenJobs(),
  });
  try {
    await listenOrExplain('PORT', config.port, () => http.listen({ port: config.port, host: config.host }));
  } catch (error) {
    await http.close();
    await simulated?.sim?.close();
    await testClock?.stop();
    await db.close();
    throw error;
  }
  // The simulator notifies this process; with PORT=0 only the listening socket knows the port.
  const address = http.server.address();
  if (simulated?.sim && address !== null && typeof address === 'object') {
    simulated.sim.setNotificationUrl(`http://127.0.0.1:${address.port}/gateway-notifications/sim`);
  }

  let scheduler: Scheduler | null = null;
  let webhookWorker: DeliveryWorker | null = null;
  if (role.background) {
    scheduler = startBackgroundJobs(ctx, logger, simulated?.sim ? clock.now() : null, config.mail);
    // Webhook deliveries: woken by every committed event (LISTEN) and by a slow fallback poll.
    webhookWorker = createDeliveryWorker(ctx, { ...deliveryWorkerOptionsFromEnv(process.env), logger });
    await webhookWorker.start();
  }
  wakeTimeDrivenJobs = () => {
    for (const name of TIME_DRIVEN_JOBS) scheduler?.wake(name);
    webhookWorker?.wake();
  };
  const metrics = await startConfiguredMetricsServer(config, ctx.metrics.registry);
  if (metrics) logger.info({ url: `${metrics.url}/metrics` }, 'metrics listening');
  const demo = config.createDemoMerchant && role.welcome ? await ensureDemoMerchant(ctx) : null;
  // In production stdout carries only the JSON log lines (what a log collector parses): the
  // welcome text, for the operator at a terminal, goes to stderr there.
  if (role.welcome)
    (config.production ? process.stderr : process.stdout).write(
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
    metrics,
    async stop() {
      // Order matters: stop taking requests (in-flight ones finish), then workers, then the database.
      await http.close();
      await scheduler?.stop();
      await webhookWorker?.stop();
      await metrics?.close();
      await simulated?.sim?.close();
      await testClock?.stop();
      await db.close();
    },
  };
}
