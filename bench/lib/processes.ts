import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/** Node flags that run a TypeScript file from source (bench tools, and services of older commits). */
export const FROM_SOURCE = ['--conditions=development', '--import', 'tsx'];

/** A Node process of the bench: the service, its workers, receivers, baselines. */
export interface NodeChild {
  readonly pid: number;
  readonly name: string;
  /** The last lines it wrote, for the error message when it dies or does not come up. */
  output(): string;
  /** Sends a signal (the query counter resets on SIGUSR2). */
  signal(name: NodeJS.Signals): void;
  /** Ends it with SIGTERM (SIGKILL after `graceMs`) and waits for the exit. */
  stop(graceMs?: number): Promise<void>;
  readonly exited: Promise<number | null>;
}

/** Runs a TypeScript file of this checkout from source (through tsx). */
export function startNodeChild(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeFlags: string[] = [],
  cwd: string = repoRoot,
): NodeChild {
  return spawnNodeChild(name, [...FROM_SOURCE, ...nodeFlags, ...args], env, cwd);
}

/** Runs `node <nodeArgs>` as is: a compiled entry needs no tsx. */
export function spawnNodeChild(
  name: string,
  nodeArgs: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): NodeChild {
  const child: ChildProcess = spawn(process.execPath, nodeArgs, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`${name}: could not spawn`);
  const pid = child.pid;
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let stopped = false;
  return {
    pid,
    name,
    output: () => tail,
    exited,
    signal: (signalName) => void child.kill(signalName),
    async stop(graceMs = 10_000) {
      if (stopped) return;
      stopped = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A port the kernel says is free right now. It is free only until someone else binds it: between
 * this answer and the child's own listen (seconds for the embedded service, which opens PGlite and
 * migrates first) any outbound connection of this machine may be given it as its local port. Start
 * children through `onFreePorts`, which picks new ports when that happened.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** What a child's start failure says when one of its ports was taken before it could listen. */
export function portWasTaken(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /EADDRINUSE|already in use/.test(message);
}

/**
 * Runs `start` with `count` ports from `freePort`, and again with new ports (up to `attempts` times)
 * when it failed because one of them was taken in the meantime (`portWasTaken`). `start` must stop
 * what it started before it throws. Any other failure is thrown at once.
 */
export async function onFreePorts<T>(
  count: number,
  start: (ports: number[]) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = [];
    while (ports.length < count) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    try {
      return await start(ports);
    } catch (error) {
      if (attempt >= attempts || !portWasTaken(error)) throw error;
      process.stderr.write(
        `[bench] port ${ports.join(' or ')} was taken before the child bound it; new ports\n`,
      );
    }
  }
}

/** Waits for `ready`; when it fails, stops `child` (whose port may be wanted again) and throws. */
export async function stopIfNotReady(child: NodeChild, ready: Promise<void>): Promise<void> {
  try {
    await ready;
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** Polls `url` until it answers 2xx; fails early if the child exits. */
export async function waitForHttp(url: string, child: NodeChild, timeoutMs = 60_000): Promise<void> {
  let exitCode: number | null | undefined;
  void child.exited.then((code) => {
    exitCode = code;
  });
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(`${child.name} exited (${exitCode}) before it was ready:\n${child.output()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${child.name} was not ready at ${url} after ${timeoutMs} ms:\n${child.output()}`);
}

export interface MemorySample {
  rssBytes: number;
  /** Peak resident set since start, or since the last `resetPeakMemory`. */
  peakRssBytes: number;
}

function statusField(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match?.[1]) throw new Error(`no ${field} in /proc status`);
  return Number(match[1]) * 1024;
}

/** Reads VmRSS and VmHWM of a process from /proc (Linux). */
export function memoryOf(pid: number): MemorySample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rssBytes: statusField(status, 'VmRSS'), peakRssBytes: statusField(status, 'VmHWM') };
}

/**
 * Resets VmHWM to the current RSS (writing 5 to clear_refs, Linux ≥ 4.0), so each scenario's peak
 * is its own. Where that is not allowed, the peak stays cumulative and the report says so.
 */
export function resetPeakMemory(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
