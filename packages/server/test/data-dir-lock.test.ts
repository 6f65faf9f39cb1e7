import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from '../src/storage/data-dir-lock.ts';

const mainPath = new URL('../src/main.ts', import.meta.url).pathname;

/** `paygate <args>` as its own process, from the TypeScript sources (as `npm run dev` runs it). */
function paygate(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')));
  return spawn(process.execPath, ['--conditions=development', '--import', 'tsx', mainPath, ...args], {
    env: { ...clean, PAYGATE_LOG_LEVEL: 'warn', ...env },
  });
}

/** The whole output of a process and its exit code, or the output until `done` says enough. */
function output(
  child: ChildProcessWithoutNullStreams,
  done: (text: string) => boolean = () => false,
): Promise<{ text: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`timed out; output so far:\n${text}`)), 90_000);
    const take = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (done(text)) {
        clearTimeout(timer);
        resolve({ text, code: null });
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ text, code });
    });
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

/** The pid of a process that has certainly ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('the embedded database is never opened by two processes', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-lock-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses `paygate merchant create` beside a running `paygate start`, naming the running process', async () => {
    const service = paygate(['start'], { PORT: '0', PAYGATE_SIM: 'off', PAYGATE_DATA_DIR: dataDir });
    try {
      await output(service, (text) => text.includes('Paygate is listening'));
      const second = await output(paygate(['merchant', 'create', 'Second'], { PAYGATE_DATA_DIR: dataDir }));
      assert.equal(second.code, 1, second.text);
      assert.match(
        second.text,
        new RegExp(`the embedded database in ${dataDir} is in use by another process: pid ${service.pid} `),
      );
      assert.match(second.text, /start/);
      assert.doesNotMatch(second.text, /sk_test_/, 'no keys are printed that would never work');
    } finally {
      service.kill('SIGTERM');
      assert.equal(await exited(service), 0);
    }
    assert.equal(existsSync(join(dataDir, LOCK_FILE)), false, 'a clean stop releases the lock');
  });

  it('takes over the lock of a process that was killed', async () => {
    const service = paygate(['start'], { PORT: '0', PAYGATE_SIM: 'off', PAYGATE_DATA_DIR: dataDir });
    await output(service, (text) => text.includes('Paygate is listening'));
    service.kill('SIGKILL');
    await exited(service);
    const lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as { pid: number };
    assert.equal(lock.pid, service.pid, 'the killed process left its lock behind');

    const next = await output(
      paygate(['merchant', 'create', 'After', 'crash'], { PAYGATE_DATA_DIR: dataDir }),
    );
    assert.equal(next.code, 0, next.text);
    assert.match(next.text, /"name": "After crash"/);
    assert.equal(existsSync(join(dataDir, LOCK_FILE)), false);
  });
});

describe('lockDataDir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-lock-unit-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a second lock in the same process and frees the directory on release', () => {
    const lock = lockDataDir(dataDir, 'first');
    assert.throws(() => lockDataDir(dataDir, 'second'), DataDirInUseError);
    lock.release();
    lockDataDir(dataDir, 'third').release();
  });

  it('names a live owner from the lock file, and takes over one whose process has ended', () => {
    const path = join(dataDir, LOCK_FILE);
    const live = { pid: process.ppid, hostname: hostname(), command: 'paygate start', started_at: 'earlier' };
    writeFileSync(path, JSON.stringify(live));
    assert.throws(
      () => lockDataDir(dataDir),
      (error: unknown) =>
        error instanceof DataDirInUseError &&
        error.message.includes(`pid ${process.ppid} `) &&
        /paygate start/.test(error.message),
    );
    writeFileSync(path, JSON.stringify({ ...live, pid: deadPid() }));
    const lock = lockDataDir(dataDir, 'taker');
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, process.pid);
    lock.release();
    assert.equal(existsSync(path), false);
  });

  it('treats a lock from another host as held (its process cannot be checked from here)', () => {
    const path = join(dataDir, LOCK_FILE);
    writeFileSync(
      path,
      JSON.stringify({ pid: deadPid(), hostname: 'elsewhere', command: 'x', started_at: 'y' }),
    );
    assert.throws(() => lockDataDir(dataDir), /on elsewhere/);
    rmSync(path);
  });
});
