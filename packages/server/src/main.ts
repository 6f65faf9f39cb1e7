import { type Config, ConfigError, loadConfig } from './config.ts';

const usage = `Usage: paygate <command>

Commands:
  start                      start the service (API, operator API, workers, simulated gateway)
  migrate                    apply pending database migrations and exit
  worker                     run only the webhook delivery worker (no HTTP); run several beside the API
  sim                        run only the simulated gateway, shared by every process (PAYGATE_SIM_URL)
  reconcile [--from <instant>] [--to <instant>] [--dry-run] [--json]
                             compare charges and refunds with the gateway's books (default: the last
                             24 hours), repair what can be, exit 3 while differences remain
  merchant create <name>     create a merchant and print its API keys (shown once)
  dashboard invite-owner <merchant id> <e-mail>
                             invite a merchant's first dashboard owner (prints the token once)
  help                       show this text

Configuration comes from the environment; see docs/operations.md.`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${usage}\n`);
    return command ? 0 : 1;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`paygate: configuration error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  // Each command loads only its own modules: a `paygate worker` process has no HTTP server and no
  // simulated gateway in memory, and `migrate` or `help` start quickly.
  switch (command) {
    case 'start': {
      const { startService } = await import('./service.ts');
      const service = await startService(config);
      const stop = (signal: string) => {
        service.logger.info({ signal }, 'shutting down: finishing in-flight requests');
        service
          .stop()
          .then(() => process.exit(0))
          .catch((error: unknown) => {
            service.logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          });
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      return -1;
    }
    case 'worker': {
      const { startWorkerProcess } = await import('./webhooks/worker-process.ts');
      const worker = await startWorkerProcess(config);
      const stop = (signal: string) => {
        worker.logger.info({ signal }, 'shutting down: finishing attempts in flight');
        worker.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      return -1;
    }
    case 'sim': {
      const { startSimProcess } = await import('./cli/sim-command.ts');
      const sim = await startSimProcess(config);
      const stop = () => {
        sim.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      return -1;
    }
    case 'reconcile': {
      const { reconcileCommand } = await import('./cli/reconcile-command.ts');
      try {
        return await reconcileCommand(config, rest);
      } catch (error) {
        if (error instanceof ConfigError || (error instanceof TypeError && 'code' in error)) {
          process.stderr.write(`paygate reconcile: ${error.message}\n`);
          return 2;
        }
        throw error;
      }
    }
    case 'migrate': {
      const [{ openDatabase }, { migrate }] = await Promise.all([
        import('./storage/open.ts'),
        import('./storage/migrate.ts'),
      ]);
      const db = await openDatabase(config);
      try {
        const applied = await migrate(db);
        process.stdout.write(
          applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n',
        );
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'merchant':
      if (rest[0] === 'create' && rest[1]) {
        const { createMerchantCommand } = await import('./cli/merchant-commands.ts');
        return createMerchantCommand(config, rest.slice(1).join(' '));
      }
      process.stderr.write(`${usage}\n`);
      return 1;
    case 'dashboard':
      if (rest[0] === 'invite-owner' && rest[1] && rest[2] && rest.length === 3) {
        const { inviteOwnerCommand } = await import('./cli/dashboard-commands.ts');
        return inviteOwnerCommand(config, rest[1], rest[2]);
      }
      process.stderr.write(`${usage}\n`);
      return 1;
    default:
      process.stderr.write(`paygate: unknown command '${command}'\n\n${usage}\n`);
      return 1;
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`paygate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
