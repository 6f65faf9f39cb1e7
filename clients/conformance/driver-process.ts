// Talks to one client's conformance driver: JSON Lines commands in, exactly one JSON line out per
// command, in order (../shared/CLIENTS.md). Anything else on stdout is a protocol violation.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const repositoryRoot = resolve(new URL('../..', import.meta.url).pathname);

export interface DriverError {
  kind: 'api' | 'connection' | 'configuration' | 'signature_verification' | 'invalid_payload';
  class: string;
  root: boolean;
  code: string | null;
  status: number | null;
  request_id: string | null;
  problem: Record<string, unknown> | null;
  message: string;
}

export type Json = Record<string, unknown>;

export interface Reply {
  id: string | null;
  ok: boolean;
  result?: Json;
  error?: DriverError;
  sleeps_ms?: number[];
  attempts?: number;
}

export interface Command {
  op: string;
  [field: string]: unknown;
}

/** How long one command may take; the slowest scenario (time-outs with retries) needs a few seconds. */
const REPLY_TIMEOUT_MS = 60_000;

export class DriverProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting: Array<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }> = [];
  #stderr = '';
  #failure: Error | null = null;
  #sequence = 0;

  constructor(readonly path: string) {
    this.#child = spawn(path, [], { cwd: repositoryRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stderr.setEncoding('utf8');
    this.#child.stderr.on('data', (chunk: string) => {
      // Kept for diagnostics only, bounded.
      this.#stderr = (this.#stderr + chunk).slice(-20_000);
    });
    const lines = createInterface({ input: this.#child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => this.#onLine(line));
    this.#child.on('exit', (code, signal) => {
      this.#fail(
        new Error(`driver exited (${code ?? signal}) with commands pending; stderr:\n${this.#stderr}`),
      );
    });
    this.#child.on('error', (error) => this.#fail(error));
  }

  get stderr(): string {
    return this.#stderr;
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
  }

  #onLine(line: string): void {
    const waiter = this.#waiting.shift();
    if (!waiter) {
      this.#fail(new Error(`driver wrote a line nobody asked for: ${line}`));
      return;
    }
    try {
      waiter.resolve(JSON.parse(line) as Reply);
    } catch {
      const error = new Error(`driver wrote a line that is not JSON: ${line}`);
      waiter.reject(error);
      this.#fail(error);
    }
  }

  /** Sends one command; resolves its reply, after checking the id was echoed. */
  async send(command: Command): Promise<Reply> {
    if (this.#failure) throw this.#failure;
    this.#sequence += 1;
    const id = `c${this.#sequence}`;
    const reply = await new Promise<Reply>((resolveReply, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no reply to ${command.op} within ${REPLY_TIMEOUT_MS} ms`)),
        REPLY_TIMEOUT_MS,
      );
      this.#waiting.push({
        resolve: (value) => {
          clearTimeout(timer);
          resolveReply(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
    });
    if (reply.id !== id) throw new Error(`reply id ${JSON.stringify(reply.id)} does not echo ${id}`);
    return reply;
  }

  /** Ends input and waits for the driver to exit; resolves its exit code. */
  async close(): Promise<number | null> {
    if (this.#child.exitCode !== null) return this.#child.exitCode;
    const exited = new Promise<number | null>((resolveExit) =>
      this.#child.once('exit', (code) => resolveExit(code)),
    );
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 20_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The drivers to run: those named in PAYGATE_CLIENT_DRIVERS (comma-separated paths, relative to the
 * repository root or absolute), else every `conformance/driver` present in the repository.
 */
export function driversToRun(env: NodeJS.ProcessEnv = process.env): string[] {
  const named = (env.PAYGATE_CLIENT_DRIVERS ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter((path) => path !== '');
  if (named.length > 0) return named.map((path) => resolve(repositoryRoot, path));
  const candidates = [join(repositoryRoot, 'packages/client-node/conformance/driver')];
  const clients = join(repositoryRoot, 'clients');
  if (existsSync(clients)) {
    for (const entry of readdirSync(clients, { withFileTypes: true })) {
      if (entry.isDirectory()) candidates.push(join(clients, entry.name, 'conformance/driver'));
    }
  }
  return candidates.filter((path) => existsSync(path)).sort();
}

export function driverName(path: string): string {
  return relative(repositoryRoot, dirname(dirname(path))) || path;
}

export interface BuildOutcome {
  ok: boolean;
  /** The build said its toolchain is missing (exit 127, the shell's "command not found"). */
  toolchainMissing: boolean;
  output: string;
}

/** Runs the driver's `conformance/build` from the repository root, as outside tests do. */
export function buildDriver(driverPath: string): BuildOutcome {
  const build = join(dirname(driverPath), 'build');
  if (!isExecutable(driverPath)) {
    return { ok: false, toolchainMissing: false, output: `${driverPath} is missing or not executable` };
  }
  if (!isExecutable(build)) {
    return { ok: false, toolchainMissing: false, output: `${build} is missing or not executable` };
  }
  const result = spawnSync(build, [], { cwd: repositoryRoot, encoding: 'utf8', timeout: 240_000 });
  return {
    ok: result.status === 0,
    toolchainMissing: result.status === 127,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
  };
}
