import pino, { type Logger } from 'pino';
import { createAppContext } from '../app/create-context.ts';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { configuredConnectors, GatewayRegistry } from '../gateways/registry.ts';
import { simulatedGateway } from '../gateways/sim/deployment.ts';
import { SharedTestClock } from '../shared-test-clock.ts';
import { openDatabase } from '../storage/open.ts';
import { startBackgroundJobs, TIME_DRIVEN_JOBS } from './background-jobs.ts';

export interface SchedulerProcess {
  logger: Logger;
  stop(): Promise<void>;
}

/**
 * The scheduled jobs alone (expiry, delayed charges, reconciliation, sweeps), without HTTP: the
 * scheduler process of `paygate start --processes N`. Exactly one runs per deployment; it talks to
 * the gateways (the shared simulator at PAYGATE_SIM_URL) like an API process does.
 */
export async function startSchedulerProcess(config: Config): Promise<SchedulerProcess> {
  const logger = pino({ level: config.logLevel });
  const db = await openDatabase(config);
  let wake = () => {};
  const testClock = config.testClock ? new SharedTestClock(db, () => wake()) : null;
  await testClock?.start();
  const clock: Clock = testClock ?? systemClock;
  const simulated = await simulatedGateway({ ...config, simPort: null }, clock);
  const ctx = createAppContext({
    db,
    clock,
    gateways: new GatewayRegistry([
      ...(simulated ? [simulated.connector] : []),
      ...configuredConnectors(process.env, { clock, logger }),
    ]),
    masterKey: config.masterKey,
    publicUrl: config.publicUrl,
    logger,
    testWebhooksAllowLoopback: config.testWebhooksAllowLoopback,
  });
  // The shared simulator was started with this deployment: its books begin about now.
  const scheduler = startBackgroundJobs(ctx, logger, simulated ? clock.now() : null, config.mail);
  wake = () => {
    for (const name of TIME_DRIVEN_JOBS) scheduler.wake(name);
  };
  logger.info({ pid: process.pid }, 'scheduler started');
  return {
    logger,
    async stop() {
      await scheduler.stop();
      await testClock?.stop();
      await db.close();
    },
  };
}
