import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';

// The production entry, as `npm start` and `npm run paygate` run it: compiled JavaScript, no tsx.
const buildScript = new URL('../scripts/build.ts', import.meta.url).pathname;
const mainPath = new URL('../dist/main.js', import.meta.url).pathname;

function freePort(): Promise<number> {
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

// Every process a test started: a failed or timed-out test must not leave one running, or the
// test runner waits for it forever.
const started = new Set<ChildProcessWithoutNullStreams>();
after(() => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Another process's listening socket, as a port already in use. */
async function occupyPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return { port: address.port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function paygate(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')));
  const child = spawn(process.execPath, [mainPath, ...args], {
    env: { ...clean, PAYGATE_LOG_LEVEL: 'warn', ...env },
  });
  started.add(child);
  return child;
}

/** Collects stdout and stderr until `done` says it has seen enough (or the process exits). */
function readUntil(child: ChildProcessWithoutNullStreams, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`timed out; output so far:\n${text}`)), 180_000);
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (done(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
    // In production the welcome text is on stderr (stdout carries only JSON log lines).
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (done(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('the paygate command (compiled, as npm start runs it)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-cli-'));
  before(() => {
    const built = spawnSync(process.execPath, ['--import', 'tsx', buildScript], { encoding: 'utf8' });
    assert.equal(built.status, 0, `the build failed:\n${built.stderr}`);
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts on a fresh data dir, prints keys and a curl that creates an intent, and stops on SIGTERM', async () => {
    const port = await freePort();
    const simPort = await freePort();
    const child = paygate(['start'], {
      PORT: String(port),
      PAYGATE_SIM_PORT: String(simPort),
      PAYGATE_DATA_DIR: dataDir,
    });
    const output = await readUntil(child, (text) => text.includes('"gateway_id": "sim"}'));
    assert.match(output, /Operator token \(X-Admin-Token\)/);
    const secretKey = /X-API-Key: (sk_test_[0-9A-Za-z]+)/.exec(output)?.[1];
    assert.ok(secretKey, output);
    const idempotencyKey = /Idempotency-Key: ([^']+)'/.exec(output)?.[1];
    const body = /-d '(\{.*\})'/.exec(output)?.[1];
    assert.ok(idempotencyKey && body, output);

    // Exactly what the printed curl sends.
    const response = await fetch(`http://localhost:${port}/v1/payment-intents`, {
      method: 'POST',
      headers: {
        'X-API-Key': secretKey,
        'Idempotency-Key': idempotencyKey,
        'Content-Type': 'application/json',
      },
      body,
    });
    assert.equal(response.status, 200);
    const intent = (await response.json()) as { status: string; amount_minor: number };
    assert.equal(intent.status, 'CREATED');
    assert.equal(intent.amount_minor, 2500);

    // The runtime assets of the build: the browser script built beside main.js, and the health route.
    const script = await fetch(`http://localhost:${port}/checkout/v1/checkout.js`);
    assert.equal(script.status, 200);
    assert.match(await script.text(), /Paygate/);
    const health = await fetch(`http://localhost:${port}/healthz`);
    assert.deepEqual(await health.json(), { status: 'ok' });

    child.kill('SIGTERM');
    assert.equal(await exitCode(child), 0);
    await assert.rejects(fetch(`http://localhost:${port}/healthz`));
  });

  it('keeps its data: a second start creates no second demo merchant and prints no keys', async () => {
    const port = await freePort();
    const child = paygate(['start'], { PORT: String(port), PAYGATE_SIM: 'off', PAYGATE_DATA_DIR: dataDir });
    // Everything the process prints from start to exit, so nothing printed late is missed.
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    await waitFor('the service listens', () => output.includes('Paygate is listening'), {
      timeoutMs: 180_000,
    });
    child.kill('SIGTERM');
    assert.equal(await exitCode(child), 0);
    assert.doesNotMatch(output, /sk_test_|pk_test_|Demo merchant/);
  });

  it('refuses PostgreSQL without a master key with a clear configuration error', async () => {
    const child = paygate(['start'], {
      PAYGATE_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
      PAYGATE_DATA_DIR: dataDir,
    });
    const output = await readUntil(child, () => false);
    assert.equal(await exitCode(child), 2);
    assert.match(output, /PAYGATE_MASTER_KEY is required with PostgreSQL/);
  });

  it('creates a merchant with `paygate merchant create` and prints its four keys once', async () => {
    const output = await readUntil(
      paygate(['merchant', 'create', 'Corner', 'shop'], { PAYGATE_DATA_DIR: dataDir }),
      () => false,
    );
    const printed = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1));
    assert.match(printed.id, /^acct_[0-9A-Za-z]{24}$/);
    assert.equal(printed.name, 'Corner shop');
    assert.match(printed.api_keys.secret_test, /^sk_test_/);
    assert.match(printed.api_keys.publishable_live, /^pk_live_/);
    assert.match(output, /shown only now/);
  });

  it("invites a merchant's first dashboard owner with `paygate dashboard invite-owner`", async () => {
    const created = await readUntil(
      paygate(['merchant', 'create', 'Owned'], { PAYGATE_DATA_DIR: dataDir }),
      () => false,
    );
    const merchantId = JSON.parse(created.slice(created.indexOf('{'), created.lastIndexOf('}') + 1)).id;
    const invite = paygate(['dashboard', 'invite-owner', merchantId, 'Boss@Owned.example'], {
      PAYGATE_DATA_DIR: dataDir,
    });
    const output = await readUntil(invite, () => false);
    assert.equal(await exitCode(invite), 0, output);
    const printed = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1));
    assert.equal(printed.email, 'boss@owned.example');
    assert.equal(printed.role, 'owner');
    assert.match(printed.token, /^inv_[0-9A-Za-z]{32}$/);
    const unknown = paygate(['dashboard', 'invite-owner', 'acct_000000000000000000000000', 'a@b.example'], {
      PAYGATE_DATA_DIR: dataDir,
    });
    const refused = await readUntil(unknown, () => false);
    assert.equal(await exitCode(unknown), 1);
    assert.match(refused, /No merchant with id 'acct_000000000000000000000000'/);
  });

  it('adds an operator with `paygate operator create` (password from the environment), who then signs in', async () => {
    const noPassword = paygate(['operator', 'create', 'ops@cli.example'], { PAYGATE_DATA_DIR: dataDir });
    const refused = await readUntil(noPassword, () => false);
    assert.equal(await exitCode(noPassword), 1);
    assert.match(refused, /set PAYGATE_OPERATOR_PASSWORD/);
    const password = 'a long operator password';
    const create = paygate(['operator', 'create', 'Ops@CLI.example'], {
      PAYGATE_DATA_DIR: dataDir,
      PAYGATE_OPERATOR_PASSWORD: password,
    });
    const output = await readUntil(create, () => false);
    assert.equal(await exitCode(create), 0, output);
    const printed = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1));
    assert.equal(printed.object, 'operator');
    assert.equal(printed.email, 'ops@cli.example');
    assert.match(printed.id, /^opu_[0-9A-Za-z]{24}$/);
    assert.match(output, /Sign in at http:\/\/localhost:\d+\/operator\/sign-in/);
    assert.doesNotMatch(output, new RegExp(password));
    const again = paygate(['operator', 'create', 'ops@cli.example'], {
      PAYGATE_DATA_DIR: dataDir,
      PAYGATE_OPERATOR_PASSWORD: password,
    });
    const taken = await readUntil(again, () => false);
    assert.equal(await exitCode(again), 1);
    assert.match(taken, /already belongs to an operator/);

    // The operator made by the command signs in to the console of a service on the same data.
    const port = await freePort();
    const service = paygate(['start'], { PORT: String(port), PAYGATE_SIM: 'off', PAYGATE_DATA_DIR: dataDir });
    try {
      await readUntil(service, (text) => text.includes('Paygate is listening'));
      const signIn = await fetch(`http://127.0.0.1:${port}/operator/api/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ops@cli.example', password }),
      });
      assert.equal(signIn.status, 200);
      assert.equal(((await signIn.json()) as { operator: { id: string } }).operator.id, printed.id);
    } finally {
      service.kill('SIGTERM');
      await exitCode(service);
    }
  });

  it('in production creates no demo merchant and starts no simulated gateway, even with its port set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-production-'));
    const port = await freePort();
    const simPort = await freePort();
    const child = paygate(['start'], {
      NODE_ENV: 'production',
      PORT: String(port),
      PAYGATE_SIM_PORT: String(simPort),
      PAYGATE_DATA_DIR: dir,
    });
    try {
      const output = await readUntil(child, (text) => text.includes('Paygate is listening'));
      assert.match(output, /Paygate is listening/);
      assert.doesNotMatch(output, /Demo merchant|sk_test_/);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
      await assert.rejects(fetch(`http://127.0.0.1:${simPort}/`), 'nothing listens on PAYGATE_SIM_PORT');
    } finally {
      child.kill('SIGTERM');
      await exitCode(child);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses PostgreSQL without PAYGATE_ADMIN_TOKEN with a clear configuration error', async () => {
    const child = paygate(['start'], {
      PAYGATE_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
      PAYGATE_MASTER_KEY: 'ab'.repeat(32),
      PAYGATE_DATA_DIR: dataDir,
    });
    const output = await readUntil(child, () => false);
    assert.equal(await exitCode(child), 2);
    assert.match(output, /configuration error: PAYGATE_ADMIN_TOKEN is required with PostgreSQL/);
  });

  it('names the variable and its allowed values for a bad PAYGATE_LOG_LEVEL (exit 2, no stack)', async () => {
    const child = paygate(['start'], { PAYGATE_LOG_LEVEL: 'loud', PAYGATE_DATA_DIR: dataDir });
    const output = await readUntil(child, () => false);
    assert.equal(await exitCode(child), 2);
    assert.equal(
      output.trim(),
      'paygate: configuration error: PAYGATE_LOG_LEVEL="loud" is not valid; allowed: fatal, error, warn, info, debug, trace, silent',
    );
  });

  it('names PORT when the port is already in use', async () => {
    const blocker = await occupyPort();
    try {
      const child = paygate(['start'], {
        PORT: String(blocker.port),
        PAYGATE_SIM: 'off',
        PAYGATE_DATA_DIR: dataDir,
      });
      const output = await readUntil(child, () => false);
      assert.equal(await exitCode(child), 2);
      assert.match(
        output,
        new RegExp(
          `configuration error: PORT="${blocker.port}" is not valid \\(the port is already in use by another process\\); allowed: a free port number: set PORT to another port`,
        ),
      );
    } finally {
      await blocker.close();
    }
  });

  it("names PAYGATE_SIM_PORT when the simulated gateway's port is already in use", async () => {
    const blocker = await occupyPort();
    try {
      const child = paygate(['start'], {
        PORT: String(await freePort()),
        PAYGATE_SIM_PORT: String(blocker.port),
        PAYGATE_DATA_DIR: dataDir,
      });
      const output = await readUntil(child, () => false);
      assert.equal(await exitCode(child), 2);
      assert.match(
        output,
        /configuration error: PAYGATE_SIM_PORT="\d+" is not valid \(the port is already in use/,
      );
      assert.match(output, /or PAYGATE_SIM=off/);
    } finally {
      await blocker.close();
    }
  });

  it('prints its version with --version', async () => {
    const child = paygate(['--version'], {});
    const output = await readUntil(child, () => false);
    assert.equal(await exitCode(child), 0);
    assert.equal(output.trim(), 'paygate 1.0.0');
  });

  it('prints help with --help and for every command with <command> --help, without reading the configuration', async () => {
    // A broken variable does not stand in the way of reading the help.
    const broken = { PAYGATE_LOG_LEVEL: 'loud' };
    const overview = paygate(['--help'], broken);
    const text = await readUntil(overview, () => false);
    assert.equal(await exitCode(overview), 0);
    const commands = ['start', 'migrate', 'worker', 'merchant', 'help'];
    for (const command of commands) assert.match(text, new RegExp(`^  ${command}\\b`, 'm'));
    for (const command of commands) {
      const child = paygate([command, '--help'], broken);
      const help = await readUntil(child, () => false);
      assert.equal(await exitCode(child), 0, `${command} --help`);
      assert.match(help, new RegExp(`^Usage: paygate ${command}`), help);
    }
    const start = await readUntil(paygate(['help', 'start'], broken), () => false);
    assert.match(start, /PORT=9080 PAYGATE_SIM_PORT=9081 npm start/);
  });

  it('refuses an unknown option of a command', async () => {
    const child = paygate(['migrate', '--force'], {});
    const output = await readUntil(child, () => false);
    assert.equal(await exitCode(child), 1);
    assert.match(output, /unknown option '--force' for 'migrate'/);
  });

  it('migrates with `paygate migrate` and reports an up-to-date database the second time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-migrate-'));
    try {
      const first = await readUntil(paygate(['migrate'], { PAYGATE_DATA_DIR: dir }), () => false);
      assert.match(first, /applied: 001_foundation/);
      const second = await readUntil(paygate(['migrate'], { PAYGATE_DATA_DIR: dir }), () => false);
      assert.match(second, /database is up to date/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
