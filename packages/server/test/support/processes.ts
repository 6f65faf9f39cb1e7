// Real `paygate` processes for the tests of several processes on one database: spawned from the
// TypeScript sources (as `npm run dev` runs them), each with its own environment.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

const mainPath = new URL('../../src/main.ts', import.meta.url).pathname;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface PaygateProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves once its output contains `text`. */
  printed(text: string, timeoutMs?: number): Promise<void>;
  /** SIGTERM and wait for the exit (SIGKILL is `child.kill('SIGKILL')`). */
  stop(): Promise<void>;
  exited(): Promise<number | null>;
}

/**
 * `main`: a compiled entry point (dist/main.js, of this checkout or of another release) run with
 * plain node instead of the TypeScript sources.
 */
export function startPaygate(
  name: string,
  args: string[],
  env: Record<string, string>,
  options: { main?: string } = {},
): PaygateProcess {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')));
  const entry = options.main ? [options.main] : ['--import', 'tsx', mainPath];
  const child = spawn(process.execPath, [...entry, ...args], {
    env: { ...clean, PAYGATE_LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchProcess(name, child);
}

/** Collects what a child started some other way (another command, a network namespace) prints. */
export function watchProcess(name: string, child: ChildProcess): PaygateProcess {
  let text = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.length > 200_000) text = text.slice(-100_000);
    for (const waiter of [...waiters]) {
      if (text.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    child,
    output: () => text,
    printed(wanted, timeoutMs = 120_000) {
      if (text.includes(wanted)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${name} never printed ${JSON.stringify(wanted)}; output:\n${text}`)),
          timeoutMs,
        );
        const waiter = {
          text: wanted,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        waiters.push(waiter);
        exit.then(() => {
          clearTimeout(timer);
          if (waiters.includes(waiter)) reject(new Error(`${name} exited; output:\n${text}`));
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exit;
    },
    exited: () => exit,
  };
}
