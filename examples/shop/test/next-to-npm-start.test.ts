// `npm run shop` next to a running `npm start` (how the quick start leaves it): the shop uses the
// running service, with the operator token `npm start` keeps in its data dir; without that token,
// or with a port taken by something else, it stops with one line that says what to do, no stack.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type LocalPaygate, startLocalPaygate } from '../src/local-paygate.ts';
import { freePort } from './support.ts';

const main = new URL('../src/main.ts', import.meta.url).pathname;

/** `npm run shop` as the script runs it, with only the given variables of ours set. */
function shop(env: Record<string, string>): {
  child: ChildProcess;
  output: () => { out: string; err: string };
} {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('PAYGATE_') && !['PORT', 'SHOP_PORT'].includes(k),
    ),
  );
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', main], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  return { child, output: () => ({ out, err }) };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function printed(output: () => { out: string }, text: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!output().out.includes(text)) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${JSON.stringify(output())}`);
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(output())}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm run shop next to a running npm start', () => {
  let paygate: LocalPaygate;
  let port: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-shop-next-'));
  before(async () => {
    port = await freePort();
    paygate = await startLocalPaygate({ port, simPort: await freePort(), dataDir });
  });
  after(async () => {
    await paygate.service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('uses the running service with the operator token kept in its data dir, and serves the shop', async () => {
    writeFileSync(join(dataDir, 'admin-token'), `${paygate.adminToken}\n`);
    const shopPort = await freePort();
    const run = shop({ PORT: String(port), SHOP_PORT: String(shopPort), PAYGATE_DATA_DIR: dataDir });
    try {
      await printed(run.output, 'Demo shop:', run.child);
      assert.match(
        run.output().out,
        new RegExp(`Using the Paygate already running on http://localhost:${port}`),
      );
      const page = await fetch(`http://127.0.0.1:${shopPort}/`);
      assert.equal(page.status, 200);
    } finally {
      run.child.kill('SIGTERM');
      await exited(run.child);
      rmSync(join(dataDir, 'admin-token'), { force: true });
    }
  });

  it('without the token, says in one line how to use it or start another, and exits 2 without a stack', async () => {
    const run = shop({ PORT: String(port), SHOP_PORT: String(await freePort()), PAYGATE_DATA_DIR: dataDir });
    assert.equal(await exited(run.child), 2);
    const { err } = run.output();
    assert.equal(err.trim().split('\n').length, 1, err);
    assert.match(
      err,
      new RegExp(`Paygate already runs on http://localhost:${port}; use it with PAYGATE_URL=`),
    );
    assert.match(err, /PORT=9080 PAYGATE_SIM_PORT=9081 npm run shop/);
    assert.doesNotMatch(err, /\n\s+at /);
  });

  it('with the port taken by something else, names the variable in one line, without a stack', async () => {
    const other = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const address = other.address();
    assert.ok(address && typeof address === 'object');
    try {
      const run = shop({
        PORT: String(address.port),
        PAYGATE_SIM_PORT: String(await freePort()),
        SHOP_PORT: String(await freePort()),
        PAYGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'paygate-shop-taken-')),
      });
      assert.equal(await exited(run.child), 2);
      const { err } = run.output();
      assert.equal(err.trim().split('\n').length, 1, err);
      assert.match(err, /^npm run shop: .*PORT/);
      assert.doesNotMatch(err, /\n\s+at /);
    } finally {
      other.close();
    }
  });
});
