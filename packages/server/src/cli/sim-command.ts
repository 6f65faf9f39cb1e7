import pino from 'pino';
import { type Clock, systemClock } from '../clock.ts';
import { type Config, ConfigError } from '../config.ts';
import { startSimulator } from '../gateways/sim/deployment.ts';
import { SharedTestClock } from '../shared-test-clock.ts';
import type { Database } from '../storage/db.ts';
import { migrate } from '../storage/migrate.ts';
import { openDatabase } from '../storage/open.ts';

export interface SimProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * `paygate sim`: the simulated gateway alone, shared by every service process of a deployment
 * (each started with PAYGATE_SIM_URL). It notifies PAYGATE_PUBLIC_URL, derives its secrets from
 * PAYGATE_MASTER_KEY like the services, and with PAYGATE_TEST_CLOCK=1 follows the test clock
 * stored in PostgreSQL, so that advancing it anywhere moves the gateway too. As a child of
 * `start --processes N` (`options.child`) it prints no advice: the parent passes PAYGATE_SIM_URL
 * to its siblings itself, and the advice is for processes started by hand.
 */
export async function startSimProcess(
  config: Config,
  options: { child?: boolean } = {},
): Promise<SimProcess> {
  const logger = pino({ level: config.logLevel });
  let db: Database | null = null;
  let testClock: SharedTestClock | null = null;
  if (config.testClock) {
    if (!config.databaseUrl) {
      throw new ConfigError(
        'paygate sim with PAYGATE_TEST_CLOCK=1 follows the test clock in PostgreSQL: set PAYGATE_DATABASE_URL',
      );
    }
    db = await openDatabase(config);
    if (config.migrateOnStart) await migrate(db);
    testClock = new SharedTestClock(db);
    await testClock.start();
  }
  const clock: Clock = testClock ?? systemClock;
  const notificationUrl = `${config.publicUrl}/gateway-notifications/sim`;
  const sim = await startSimulator(config, clock, { port: config.simPort ?? 0, notificationUrl });
  logger.info({ url: sim.url, notificationUrl }, 'simulated gateway started');
  if (!options.child) {
    process.stdout.write(
      `Simulated gateway listening on ${sim.url}, notifying ${notificationUrl}.\n` +
        `Start every service process with PAYGATE_SIM_URL=${sim.url}\n`,
    );
  }
  return {
    url: sim.url,
    async stop() {
      await sim.close();
      await testClock?.stop();
      await db?.close();
    },
  };
}
