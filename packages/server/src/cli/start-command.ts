import { parseArgs } from 'node:util';
import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';
import { ConfigError } from '../config-values.ts';
import { parseProcessCount, parseRole } from './processes.ts';

/**
 * `paygate start [--processes N]`: the whole service in this process, or (with --processes) a
 * supervisor of N API processes and one process per worker. `--role` starts one kind of process
 * alone: the supervisor starts its children with it, and so do the compose file and the systemd
 * units (docs/operations.md), where a process manager supervises instead.
 */
export async function startRole(
  config: Config,
  argv: string[],
): Promise<{ logger: Pick<Logger, 'info'>; stop(): Promise<void> }> {
  let values: { processes?: string; role?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { processes: { type: 'string' }, role: { type: 'string' } },
    }));
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  if (values.role !== undefined) {
    const role = parseRole(values.role);
    switch (role) {
      case 'api':
      case 'api-main':
        return (await import('../service.ts')).startService(config, {
          background: false,
          welcome: role === 'api-main',
        });
      case 'worker':
        return (await import('../workers/delivery-process.ts')).startWorkerProcess(config);
      case 'scheduler':
        return (await import('../workers/scheduler-process.ts')).startSchedulerProcess(config);
      case 'sim': {
        const sim = await (await import('./sim-command.ts')).startSimProcess(config, {
          child: true,
        });
        return { logger: pino({ level: config.logLevel }), stop: () => sim.stop() };
      }
    }
  }
  if (values.processes !== undefined) {
    const count = parseProcessCount(values.processes);
    return (await import('./processes.ts')).startProcessGroup(config, count);
  }
  return (await import('../service.ts')).startService(config);
}
