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
  listen --forward-to <url> [--api-key sk_test_...] [--base-url <url>]
                             forward this merchant's test-mode events, signed with a secret
                             printed for the session, to a local URL (PAYGATE_API_KEY, PAYGATE_BASE_URL)
  trigger <event type> [--api-key sk_test_...] [--base-url <url>]
                             create test-mode objects through the API so that the event happens
  help                       show this text

Configuration comes from the environment; see docs/operations.md.`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${usage}\n`);
    return command ? 0 : 1;
  }
  // listen and trigger are clients of a running service: they read no service configuration.
  if (command === 'listen' || command === 'trigger') {
    const run =
      command === 'listen'
        ? (await import('./cli/listen-command.ts')).listenCommand
        : (await import('./cli/trigger-command.ts')).triggerCommand;
    try {
      return await run(rest);
    } catch (error) {
      if (error instanceof ConfigError || (error instanceof TypeError && 'code' in error)) {
        process.stderr.write(`paygate ${command}: ${error.message}\n`);
        return 2;
      }
      throw error;
    }
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
      await runUntilSignal(startService(config), (service, signal) =>
        service.logger.info({ signal }, 'shutting down: finishing in-flight requests'),
      );
      return -1;
    }
    case 'worker': {
      const { startWorkerProcess } = await import('./webhooks/worker-process.ts');
      await runUntilSignal(startWorkerProcess(config), (worker, signal) =>
        worker.logger.info({ signal }, 'shutting down: finishing attempts in flight'),
      );
      return -1;
    }
    case 'sim': {
      const { startSimProcess } = await import('./cli/sim-command.ts');
      await runUntilSignal(startSimProcess(config));
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

/**
 * Waits for a long-running process part to start, with SIGTERM and SIGINT handled from the first
 * moment: a signal that arrives while it is still starting (or right after it said it listens)
 * stops it gracefully once it has started, instead of killing the process mid-start.
 */
async function runUntilSignal<T extends { stop(): Promise<void> }>(
  starting: Promise<T>,
  announce?: (started: T, signal: string) => void,
): Promise<T> {
  const stop = (signal: string) => {
    starting
      .then(async (started) => {
        announce?.(started, signal);
        await started.stop();
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(
            `shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`,
          );
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return starting;
}
