// A rolling restart under load (docs/operations.md, "Upgrades and rolling restarts"): two API
// processes behind HAProxy itself, with deploy/haproxy.cfg's retry policy (`retry-on conn-failure
// empty-response 503`, `option redispatch`); payments stream through it while each API process in
// turn gets SIGTERM (it stops listening, finishes its in-flight requests, exits 0) and is started
// again. No request may fail, every payment answered reads SUCCEEDED, and each restarted process
// carries payments through HAProxy again (HAProxy names the server of each answer).
// The order is docs/operations.md's block, read from it: its migration command runs as printed
// first; its `systemctl restart` lines (systemd is not init here) become their process equivalent:
// each API instance in the loop's order, stopped with SIGTERM and started again, waited for on
// /readyz before the next.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { type PaygateProcess, startPaygate } from '../../packages/server/test/support/processes.ts';
import { DocShell, documentedBlocks } from './doc-walk.ts';
import { startHaproxy } from './haproxy.ts';
import {
  buildCli,
  createMerchant,
  deployTestsEnabled,
  freePort,
  hostDatabase,
  repoRoot,
  secrets,
  until,
} from './support.ts';

const TEST = 'deploy/test/rolling-restart.test.ts';

describe('rolling restart of the API processes under load', () => {
  const processes: PaygateProcess[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const p of processes) await p.stop();
    for (const c of cleanups.reverse()) await c();
  });

  it('answers every request while each API process in turn is stopped with SIGTERM and started again', {
    skip: !deployTestsEnabled(TEST),
  }, async () => {
    const database = await hostDatabase();
    cleanups.push(database.drop);
    const [api1, api2, simPort, haproxyPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    // The processes are started before HAProxy, whose first health checks then find them up.
    const servers = { api1, api2 };
    const env = {
      ...secrets(),
      PAYGATE_DATABASE_URL: database.url,
      PAYGATE_SIM_URL: `http://127.0.0.1:${simPort}`,
      PAYGATE_PUBLIC_URL: `http://127.0.0.1:${haproxyPort}`,
      // While one process restarts, the other carries all three streams: the per-key budget (per
      // process) is not what this test measures.
      PAYGATE_RATE_LIMIT_PER_SECOND: '100000',
    };
    // The docs' block: migrate first (as printed), then the API instances one at a time, each
    // waited for on /readyz, then the worker and the scheduler (this test runs no worker).
    const [block] = documentedBlocks(TEST);
    assert.ok(block);
    const migrateLine = block.text.split('\n').find((line) => /^node \S+main\.js migrate$/.test(line.trim()));
    assert.ok(migrateLine, 'the block migrates first');
    assert.match(
      block.text,
      /for port in \d+ \d+; do\n\s+systemctl restart paygate-api@\$port\n\s+until curl -fsS localhost:\$port\/readyz; do sleep 1; done\ndone/,
      'the block restarts the API instances one at a time, each ready before the next',
    );
    buildCli();
    const migrated = await new DocShell(repoRoot, {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...env,
      PAYGATE_LOG_LEVEL: 'warn',
    }).run({ ...block, text: migrateLine });
    assert.match(migrated, /^applied: 001_foundation, /m);
    processes.push(startPaygate('sim', ['sim'], { ...env, PAYGATE_SIM_PORT: String(simPort) }));
    const startApi = async (port: number) => {
      const api = startPaygate(`api-${port}`, ['start', '--role', 'api'], { ...env, PORT: String(port) });
      processes.push(api);
      await until(`API ${port} ready`, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok);
      return api;
    };
    const running = [await startApi(api1), await startApi(api2)];
    const haproxy = await startHaproxy(servers, haproxyPort);
    cleanups.push(haproxy.close);
    const merchant = await createMerchant(haproxy.url, env.PAYGATE_ADMIN_TOKEN);

    /** One payment through HAProxy: its id, status, and the server that answered its confirm. */
    const pay = async () => {
      const headers = { 'x-api-key': merchant.key, 'content-type': 'application/json' };
      const created = await fetch(`${haproxy.url}/v1/payment-intents`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ amount_minor: 1500, currency: 'USD', gateway_id: 'sim' }),
      });
      const intent = (await created.json()) as { id: string };
      if (created.status !== 200)
        throw new Error(`create answered ${created.status}: ${JSON.stringify(intent)}`);
      const confirmed = await fetch(`${haproxy.url}/v1/payment-intents/${intent.id}/confirm`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ payment_method_token: 'tok_sim_approve' }),
      });
      const body = (await confirmed.json()) as { id: string; status: string };
      return { id: body.id, status: body.status, server: confirmed.headers.get('x-served-by') ?? '' };
    };

    const answered: { id: string; server: string }[] = [];
    const failures: string[] = [];
    let streaming = true;
    const stream = async () => {
      while (streaming) {
        try {
          const payment = await pay();
          if (payment.status === 'SUCCEEDED') answered.push(payment);
          else failures.push(`${payment.id} answered ${payment.status}`);
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const clients = [stream(), stream(), stream()];
    await until('payments flowing', async () => answered.length >= 5);

    for (const [i, [name, port]] of Object.entries(servers).entries()) {
      const old = running[i];
      assert.ok(old);
      await old.stop();
      assert.equal(await old.exited(), 0, old.output());
      const restartedAt = answered.length;
      running[i] = await startApi(port);
      // Served again: HAProxy's health check takes the restarted process back, and it carries
      // payments through HAProxy (not only the other process).
      await until(
        `payments carried by the restarted ${name} through HAProxy`,
        async () => answered.slice(restartedAt).filter((p) => p.server === name).length >= 5,
      );
    }
    streaming = false;
    await Promise.all(clients);
    assert.deepEqual(failures, [], haproxy.output().slice(-2000));
    assert.ok(answered.length >= 15, `only ${answered.length} payments`);
    for (const name of Object.keys(servers)) {
      assert.ok(
        answered.some((p) => p.server === name),
        `${name} carried payments`,
      );
    }
  });
});
