import cluster, { type Worker } from 'node:cluster';
import pino from 'pino';
import type { Config } from '../config.ts';
import { ConfigError } from '../config-values.ts';
import { migrate } from '../storage/migrate.ts';
import { openDatabase } from '../storage/open.ts';

/** What one child of `paygate start --processes N` runs. `api-main` is the API process that greets. */
export const PROCESS_ROLES = ['api', 'api-main', 'worker', 'scheduler', 'sim'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

export const MAX_API_PROCESSES = 64;
/** How long a child has to finish its work after SIGTERM before it is killed. */
const STOP_GRACE_MS = 30_000;
/** A child that died is started again after this pause (a crash loop stays slow). */
const RESTART_DELAY_MS = 1000;

export function parseProcessCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > MAX_API_PROCESSES) {
    throw new ConfigError(
      `--processes=${JSON.stringify(value)} is not valid; allowed: an integer from 1 to ${MAX_API_PROCESSES}`,
    );
  }
  return count;
}

export function parseRole(value: string): ProcessRole {
  const role = PROCESS_ROLES.find((r) => r === value);
  if (!role) throw new ConfigError(`--role=${value} is not valid; allowed: ${PROCESS_ROLES.join(', ')}`);
  return role;
}

export interface ProcessGroup {
  logger: pino.Logger;
  stop(): Promise<void>;
}

/**
 * `paygate start --processes N`: this process supervises, the work runs in children (node:cluster).
 * N API processes share the one port (the primary hands connections round-robin); the webhook
 * delivery worker, the scheduled jobs and the simulated gateway (when it runs) are one process
 * each. Every child uses the same PostgreSQL, so the embedded database cannot be used; with more
 * than one API process the rate-limit budgets must be shared, through Redis. A child that dies is
 * started again; SIGTERM stops every child gracefully, then this process.
 */
export async function startProcessGroup(config: Config, apiProcesses: number): Promise<ProcessGroup> {
  const logger = pino({ level: config.logLevel });
  if (!config.databaseUrl) {
    throw new ConfigError(
      '--processes runs the API, the webhook worker and the scheduler as separate processes over one database: set PAYGATE_DATABASE_URL (PostgreSQL; the embedded database belongs to one process)',
    );
  }
  if (apiProcesses > 1 && !config.redisUrl) {
    throw new ConfigError(
      `--processes=${apiProcesses} needs the rate-limit budgets shared between the API processes: set PAYGATE_REDIS_URL`,
    );
  }
  if (config.migrateOnStart) {
    const db = await openDatabase({ ...config, log: logger });
    try {
      const applied = await migrate(db);
      if (applied.length) logger.info({ applied }, 'database migrated');
    } finally {
      await db.close();
    }
  }
  // Children never migrate (this process did), and share one simulator when it runs.
  const childEnv: Record<string, string> = { PAYGATE_MIGRATE_ON_START: 'false' };
  const roles: ProcessRole[] = ['worker', 'scheduler'];
  if (config.simPort !== null && config.simUrl === null) {
    roles.unshift('sim');
    childEnv.PAYGATE_SIM_URL = `http://127.0.0.1:${config.simPort}`;
  }
  roles.push('api-main', ...Array.from({ length: apiProcesses - 1 }, (): ProcessRole => 'api'));

  const roleOf = new Map<Worker, ProcessRole>();
  let stopping = false;
  let listening = 0;
  const fork = (role: ProcessRole): void => {
    cluster.setupPrimary({ exec: process.argv[1], args: ['start', `--role=${role}`] });
    const child = cluster.fork(childEnv);
    roleOf.set(child, role);
  };
  cluster.on('listening', (child, address) => {
    const role = roleOf.get(child);
    if (role !== 'api' && role !== 'api-main') return;
    listening += 1;
    if (listening === apiProcesses) {
      logger.info(
        {
          port: address.port,
          apiProcesses,
          pids: [...roleOf].map(([w, r]) => ({ pid: w.process.pid, role: r })),
        },
        'all processes started',
      );
    }
  });
  cluster.on('exit', (child, code, signal) => {
    const role = roleOf.get(child);
    roleOf.delete(child);
    if (stopping || !role) return;
    logger.error({ role, pid: child.process.pid, code, signal }, 'process died; starting it again');
    setTimeout(() => {
      if (!stopping) fork(role);
    }, RESTART_DELAY_MS).unref();
  });
  for (const role of roles) fork(role);

  return {
    logger,
    async stop() {
      stopping = true;
      const children = [...roleOf.keys()];
      await Promise.all(children.map((child) => stopChild(child)));
    },
  };
}

/** SIGTERM, then SIGKILL if it has not exited within the grace period. */
function stopChild(child: Worker): Promise<void> {
  return new Promise((resolve) => {
    if (child.isDead()) return resolve();
    const timer = setTimeout(() => child.process.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.process.kill('SIGTERM');
  });
}
