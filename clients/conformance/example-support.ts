// What the tests of the clients' documented examples share (receivers.test.ts, installable.test.ts):
// the real service with its operator API, processes with their output kept for failure messages,
// polling, and reading a README's fenced block.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repositoryRoot } from './driver-process.ts';
import { freePort, type RealServiceEnv, startRealService } from './real-service.mjs';

export { freePort, repositoryRoot };

export interface Service {
  env: RealServiceEnv;
  stop: () => Promise<void>;
  /** The operator API (X-Admin-Token); fails on a non-2xx answer. */
  admin: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;
  /** The merchant API with the merchant's secret key; fails on a non-2xx answer. */
  api: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<Record<string, unknown>>;
}

async function call(url: string, method: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(url, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function startService(): Promise<Service> {
  const { env, stop } = await startRealService();
  return {
    env,
    stop,
    admin: (method, path, body) =>
      call(`${env.PAYGATE_BASE_URL}${path}`, method, { 'x-admin-token': env.PAYGATE_ADMIN_TOKEN }, body),
    api: (method, path, body, headers = {}) =>
      call(`${env.PAYGATE_BASE_URL}${path}`, method, { 'x-api-key': env.PAYGATE_API_KEY, ...headers }, body),
  };
}

/** A child process whose output is kept, to explain a failure. */
export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}

export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Started {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('error', (error) => {
      output += String(error);
      resolveExit(127);
    });
    child.once('exit', (code) => resolveExit(code));
  });
  return {
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a command to its end (without blocking the event loop); resolves its status and output. */
export async function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<{ status: number | null; output: string }> {
  const started = startProcess(command, args, options);
  const status = await started.exited;
  return { status, output: started.output() };
}

/** Polls until probe returns a value; fails after a deadline generous for a loaded machine. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null> | T | null,
  explain: () => string | Promise<string>,
): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) assert.fail(`${what}: not within 90 s\n${await explain()}`);
    await delay(150);
  }
}

/** Waits until something accepts connections on the port (or the process ends). */
export async function waitForPort(port: number, started: Started): Promise<void> {
  await waitFor(
    `something listens on ${port}`,
    async () => {
      if (started.child.exitCode !== null)
        assert.fail(`the process exited ${started.child.exitCode}:\n${started.output()}`);
      try {
        await fetch(`http://127.0.0.1:${port}/`, { method: 'GET' });
        return true;
      } catch {
        return null;
      }
    },
    started.output,
  );
}

/** The repository file's text. */
export function repoFile(path: string): string {
  return readFileSync(join(repositoryRoot, path), 'utf8');
}

/**
 * Asserts that the README holds the file as one fenced block of that language, byte for byte, and
 * returns the block's content (what a reader copies).
 */
export function readmeBlockEqualToFile(readme: string, language: string, file: string): string {
  const content = repoFile(file);
  const text = repoFile(readme);
  const fenced = `\`\`\`${language}\n${content}\`\`\`\n`;
  assert.ok(text.includes(fenced), `${readme} has a \`\`\`${language} block equal to ${file}, byte for byte`);
  return content;
}

/** The content of every fenced block of the language in the README, in order. */
export function readmeBlocks(readme: string, language: string): string[] {
  const text = repoFile(readme);
  const blocks: string[] = [];
  const pattern = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const match of text.matchAll(pattern)) blocks.push(match[1] ?? '');
  return blocks;
}
