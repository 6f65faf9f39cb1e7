import { COMMANDS, commandHelp, overview, PAYGATE_VERSION } from './cli/usage.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { DatabaseStartError } from './storage/start-errors.ts';
import { requestStop, StopRequested } from './storage/stop-signal.ts';

const HELP_FLAGS = new Set(['--help', '-h']);

/** `--help`, `--version` and `help`: answered before any configuration is read. */
function answerWithoutConfig(command: string | undefined, rest: string[]): number | null {
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`paygate ${PAYGATE_VERSION}\n`);
    return 0;
  }
  if (command === undefined) {
    process.stderr.write(overview());
    return 1;
  }
  if (HELP_FLAGS.has(command) || command === 'help') {
    const topic = rest[0];
    const text = topic === undefined ? overview() : commandHelp(HELP_FLAGS.has(topic) ? 'help' : topic);
    if (text === null) {
      process.stderr.write(`paygate: unknown command '${topic}'\n\n${overview()}`);
      return 1;
    }
    process.stdout.write(text);
    return 0;
  }
  const help = commandHelp(command);
  // A command without a help entry is left to run(), which refuses it if it does not exist.
  if (help === null) return null;
  if (rest.some((arg) => HELP_FLAGS.has(arg))) {
    process.stdout.write(help);
    return 0;
  }
  const accepted = COMMANDS[command]?.options ?? [];
  const option = rest.find((arg) => arg.startsWith('-') && !accepted.includes(arg.split('=')[0] ?? arg));
  if (option !== undefined) {
    process.stderr.write(`paygate: unknown option '${option}' for '${command}'\n\n${help}`);
    return 1;
  }
  return null;
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const answered = answerWithoutConfig(command, rest);
  if (answered !== null) return answered;
  // listen and trigger are clients of a running service: they read no service configuration.
  if (command === 'listen' || command === 'trigger') {
    const runCommand =
      command === 'listen'
        ? (await import('./cli/listen-command.ts')).listenCommand
        : (await import('./cli/trigger-command.ts')).triggerCommand;
    try {
      return await runCommand(rest);
    } catch (error) {
      if (error instanceof ConfigError || (error instanceof TypeError && 'code' in error)) {
        process.stderr.write(`paygate ${command}: ${error.message}\n`);
        return 2;
      }
      throw error;
    }
  }
  // config check reads the configuration itself: it reports every error, not only the first.
  if (command === 'config') {
    const { configCommand } = await import('./cli/config-command.ts');
    return configCommand(rest);
  }
  const config: Config = loadConfig();
  stopOneShotOnSignal(command);
  // Each command loads only its own modules: a `paygate worker` process has no HTTP server and no
  // simulated gateway in memory, and `migrate` or `help` start quickly.
  switch (command) {
    case 'start': {
      const { startRole } = await import('./cli/start-command.ts');
      await runUntilSignal(startRole(config, rest), (started, signal) =>
        started.logger.info({ signal }, 'shutting down: finishing in-flight work'),
      );
      return -1;
    }
    case 'worker': {
      const { startWorkerProcess } = await import('./workers/delivery-process.ts');
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
    case 'rotate-master-key': {
      const { rotateMasterKeyCommand } = await import('./cli/rotate-master-key-command.ts');
      try {
        return await rotateMasterKeyCommand(config, rest);
      } catch (error) {
        if (error instanceof ConfigError) {
          process.stderr.write(`paygate rotate-master-key: ${error.message}\n`);
          return 2;
        }
        throw error;
      }
    }
    case 'merchant':
      if (rest[0] === 'create' && rest[1]) {
        const { createMerchantCommand } = await import('./cli/merchant-commands.ts');
        return createMerchantCommand(config, rest.slice(1).join(' '));
      }
      process.stderr.write(`paygate: expected 'merchant create <name>'\n\n${commandHelp('merchant')}`);
      return 1;
    case 'dashboard':
      if (rest[0] === 'invite-owner' && rest[1] && rest[2] && rest.length === 3) {
        const { inviteOwnerCommand } = await import('./cli/dashboard-commands.ts');
        return inviteOwnerCommand(config, rest[1], rest[2]);
      }
      process.stderr.write(
        `paygate: expected 'dashboard invite-owner <merchant id> <e-mail>'\n\n${commandHelp('dashboard')}`,
      );
      return 1;
    case 'operator':
      if (rest[0] === 'create' && rest[1] && rest.length === 2) {
        const { createOperatorCommand } = await import('./cli/operator-commands.ts');
        return createOperatorCommand(config, rest[1], process.env.PAYGATE_OPERATOR_PASSWORD);
      }
      process.stderr.write(`paygate: expected 'operator create <e-mail>'\n\n${commandHelp('operator')}`);
      return 1;
    default:
      process.stderr.write(`paygate: unknown command '${command}'\n\n${overview()}`);
      return 1;
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    // Asked to stop while it waited (for its database): nothing had started, nothing is left.
    if (error instanceof StopRequested) {
      process.stderr.write(`paygate: ${error.message} while starting; nothing had started\n`);
      process.exit(0);
    }
    // A configuration error (a bad variable, a port in use, a database that refuses the URL's
    // user or password or does not exist) is the operator's to fix: exit 2, which the restart
    // policies of deploy/ do not retry.
    if (error instanceof DatabaseStartError && !error.connectionFailed) {
      process.stderr.write(`paygate: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`paygate: configuration error: ${error.message}\n`);
      process.exit(2);
    }
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
    // A start still waiting (for its database) ends at once; a started one stops gracefully.
    requestStop(signal);
    starting
      .then(async (started) => {
        announce?.(started, signal);
        await started.stop();
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          if (error instanceof StopRequested) {
            process.stderr.write(`paygate: ${error.message} while starting; nothing had started\n`);
            process.exit(0);
          }
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

/**
 * A one-shot command (migrate, merchant create, reconcile, ...) asked to stop: a wait for its
 * database ends at once (the command then exits 0, see above); work already under way is cut
 * short a moment later with the conventional code, as a signal without a handler would.
 */
function stopOneShotOnSignal(command: string | undefined): void {
  // The long-running roles stop through `runUntilSignal`.
  if (command === undefined || command === 'start' || command === 'worker' || command === 'sim') return;
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    process.once(signal, () => {
      requestStop(signal);
      setTimeout(() => process.exit(code), 500).unref();
    });
  }
}
